import Foundation

/// An object's running invocations (Invoke I4–I8, I16): their tasks by generation, the results
/// on their way to the machine, and what `waitForInvocations()` waits for.
///
/// It has its own lock, so that a task can finish, and tests can wait, from any thread; the
/// object's lock (when it has one) is always taken first.
///
/// `@unchecked Sendable`: every mutable field is read and written only under `lock`.
final class InvocationRegistry: @unchecked Sendable {
  private struct Entry {
    let id: String
    /// The state whose exit cancels it (-1 in a flat machine, which cancels everything at once).
    let owner: Int32
    let statePath: String
    let generation: UInt64
    let started: ContinuousClock.Instant
    let task: Task<Void, Never>
    /// Where forwarded events go (I13), with the invocation's own result events, not forwarded.
    let forwarding: AsyncStream<ForwardedEvent>.Continuation?
    let results: (done: Int32, error: Int32)
  }

  private let lock = NSLock()
  private var running: [Entry] = []
  /// Finished invocations whose result is on its way to the machine, with their owner state:
  /// a cancel removes them too, so the result is dropped (I7).
  private var delivering: [(generation: UInt64, owner: Int32)] = []
  private var nextGeneration: UInt64 = 0
  private var unfinishedTasks = 0
  /// Who waits, and for how many finished tasks (`nil`: for none left unfinished).
  private var waiters: [(finished: Int?, continuation: CheckedContinuation<Void, Never>)] = []
  private var counts = InvocationStatistics()
  private var inspectionStreams: InspectionStreams?

  /// The object's inspection streams, which hear of starts, cancels, results and drops
  /// (Inspecting B.4); set when the object is first inspected.
  var inspection: InspectionStreams? {
    get { lock.locked { inspectionStreams } }
    set { lock.locked { inspectionStreams = newValue } }
  }

  /// Starts a task under the lock, so that its handle is stored before anyone can cancel it and
  /// before it can finish (I4). Returns the start's generation (I5).
  @discardableResult
  func start(
    id: String, owner: Int32, statePath: String, results: (done: Int32, error: Int32),
    forwarding: AsyncStream<ForwardedEvent>.Continuation?, _ makeTask: (UInt64) -> Task<Void, Never>
  ) -> UInt64 {
    lock.locked {
      nextGeneration += 1
      let task = makeTask(nextGeneration)
      running.append(
        Entry(
          id: id, owner: owner, statePath: statePath, generation: nextGeneration, started: .now, task: task,
          forwarding: forwarding, results: results))
      unfinishedTasks += 1
      counts.started += 1
      // Under the lock, so that the start is recorded before the task can finish.
      inspectionStreams?.record(
        InspectedInvocation(id: id, generation: nextGeneration, state: statePath, phase: .started), event: nil)
      return nextGeneration
    }
  }

  /// Cancels the invocations whose owner state `matches` (I8, I9): their tasks are told, their
  /// results will be dropped. The machine never waits for them.
  func cancel(where matches: (Int32) -> Bool) {
    let cancelled: [Entry] = lock.locked {
      let cancelled = running.filter { matches($0.owner) }
      guard !cancelled.isEmpty || !delivering.isEmpty else { return [] }
      running.removeAll { matches($0.owner) }
      delivering.removeAll { matches($0.owner) }
      return cancelled
    }
    for entry in cancelled {
      entry.task.cancel()
      entry.forwarding?.finish()
      record(.cancelled, id: entry.id, generation: entry.generation, state: entry.statePath)
    }
  }

  /// Tells the object's inspection streams, if it has any, of a change of an invocation
  /// (Inspecting B.4; Invoke I15). `event`: the result or sent event concerned.
  func record(_ phase: InspectedInvocation.Phase, id: String, generation: UInt64, state: String, event: String? = nil) {
    guard let inspection = lock.locked({ inspectionStreams }) else { return }
    inspection.record(InspectedInvocation(id: id, generation: generation, state: state, phase: phase), event: event)
  }

  /// Forwards an external event to the autoforwarding invocations running now (I13), except to
  /// the one whose result it is.
  func forward(_ event: Int32, _ forwarded: @autoclosure () -> ForwardedEvent) {
    let targets = lock.locked {
      running.compactMap { entry in
        entry.results.done == event || entry.results.error == event ? nil : entry.forwarding
      }
    }
    guard !targets.isEmpty else { return }
    let value = forwarded()
    for target in targets { target.yield(value) }
  }

  /// Whether generation `generation` is still running (a `send` from its work is still current).
  func isRunning(_ generation: UInt64) -> Bool {
    lock.locked { running.contains { $0.generation == generation } }
  }

  /// Marks `generation`'s work as done, its result on its way; `false` if it was cancelled.
  func finish(_ generation: UInt64) -> Bool {
    lock.locked {
      guard let index = running.firstIndex(where: { $0.generation == generation }) else { return false }
      delivering.append((generation, running[index].owner))
      running[index].forwarding?.finish()
      running.remove(at: index)
      return true
    }
  }

  /// Takes `generation`'s result for delivery: `false` if it was cancelled since it finished.
  func takeResult(_ generation: UInt64) -> Bool {
    lock.locked {
      guard let index = delivering.firstIndex(where: { $0.generation == generation }) else { return false }
      delivering.remove(at: index)
      return true
    }
  }

  /// Counts a result offered to the machine, or dropped as stale (I7).
  func count(delivered: Bool) {
    lock.locked {
      if delivered { counts.delivered += 1 } else { counts.dropped += 1 }
    }
  }

  /// Called by each task when it has ended and its result was delivered or dropped.
  func taskEnded() {
    let resumed: [CheckedContinuation<Void, Never>] = lock.locked {
      unfinishedTasks -= 1
      counts.finished += 1
      guard !waiters.isEmpty else { return [] }
      let (finished, idle) = (counts.finished, unfinishedTasks == 0)
      let ready = waiters.filter { waiter in waiter.finished.map { finished >= $0 } ?? idle }
      waiters.removeAll { waiter in waiter.finished.map { finished >= $0 } ?? idle }
      return ready.map(\.continuation)
    }
    for waiter in resumed { waiter.resume() }
  }

  /// Returns once every started task has ended and its result was processed (I16).
  func waitUntilIdle() async {
    await wait(forFinished: nil)
  }

  /// Returns once `count` tasks have ended and their results were processed: a test's way to
  /// wait for one released work while others still run (its `waitForInvocations()` would wait
  /// for them all).
  func waitUntil(finished count: Int) async {
    await wait(forFinished: count)
  }

  private func wait(forFinished count: Int?) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = lock.locked {
        if count.map({ counts.finished >= $0 }) ?? (unfinishedTasks == 0) { return true }
        waiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  var active: [ActiveInvocation] {
    lock.locked {
      running.map { ActiveInvocation(id: $0.id, state: $0.statePath, generation: $0.generation, started: $0.started) }
    }
  }

  var statistics: InvocationStatistics { lock.locked { counts } }
}

/// How many invocations an object started and what became of their results
/// (``StateMachineObject/invocationStatistics``): every started task ends (`finished`), and its
/// result is either offered to the machine (`delivered`) or dropped because its state was left,
/// re-entered or stopped meanwhile (`dropped`, Invoke I7).
public struct InvocationStatistics: Sendable, Equatable {
  public var started = 0
  public var finished = 0
  public var delivered = 0
  public var dropped = 0
}
