import Foundation
import Testing

@testable import StateMachines

/// A model whose work echoes the entry count its input read, to prove that a result always
/// belongs to the entry that started it (Invoke A.6: results racing a cancel).
@StateMachine
final class InvokeRacer: @unchecked Sendable {
  var entries = 0
  var mismatches = 0
  var taken = 0
  static let stateMachine = StateMachineDefinition<InvokeRacer> { sm in
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.when("load", transitionFrom: ["idle", "ready"], to: "loading")
    sm.when("cancel", transitionFrom: "loading", to: "idle")
    sm.onEntry("loading") { $0.entries += 1 }
    sm.invoke("echo", in: "loading", input: { racer, _ in racer.entries }) { context in context.input }
    sm.whenInvokeDone("echo", transitionTo: "ready").action { racer, transition in
      racer.taken += 1
      if transition.payload(as: Int.self) != racer.entries { racer.mismatches += 1 }
    }
  }
}

/// Makes sentinels for invoked work and watches every 100th through a weak reference.
final class WeakSentinels: @unchecked Sendable {
  private struct Weak { weak var sentinel: InvocationSentinel? }
  private let lock = NSLock()
  private var made = 0
  private var weakOnes: [Weak] = []

  func make() -> InvocationSentinel {
    let sentinel = InvocationSentinel()
    lock.withLock {
      made += 1
      if made % 100 == 0 { weakOnes.append(Weak(sentinel: sentinel)) }
    }
    return sentinel
  }

  var watched: Int { lock.withLock { weakOnes.count } }
  var alive: Int { lock.withLock { weakOnes.filter { $0.sentinel != nil }.count } }
}

/// `count`, divided by `STATEMACHINES_STRESS_DIVISOR` when `.ci/run` sets it (under
/// ThreadSanitizer, which is many times slower).
func stressCount(_ count: Int) -> Int {
  let divisor = ProcessInfo.processInfo.environment["STATEMACHINES_STRESS_DIVISOR"].flatMap(Int.init) ?? 1
  return max(count / max(divisor, 1), 1)
}

/// Runs `body` on a thread of its own and returns when it has finished.
func onThread(_ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    Thread {
      body()
      continuation.resume()
    }.start()
  }
}

/// Many threads against one locked model (Invoke A.6); also run under ThreadSanitizer by `.ci/run`.
@Suite(.timeLimit(.minutes(3)))
struct InvokeStressTests {
  @Test("A.6, I8, I9: 4 threads × 25,000 load/cancel cycles on a locked model leave nothing running")
  func loadCancelStress() async {
    let sentinels = WeakSentinels()
    // The work sleeps on the definition's clock until it is cancelled (I16): nothing advances it.
    let clock = ManualClock()
    let machine = DynamicStateMachine(
      StateMachineDefinition { sm in
        sm.clock = clock
        sm.addState("idle")
        sm.addState("loading")
        sm.addState("ready")
        sm.when("load", transitionFrom: "idle", to: "loading")
        sm.when("cancel", transitionFrom: "loading", to: "idle")
        // Each work holds a sentinel; every 100th is watched through a weak reference.
        sm.invoke("wait", in: "loading", input: { _, _ in sentinels.make() }) { context in
          let held = context.input
          defer { _ = held }
          try await context.clock.sleep(for: .seconds(3600))
        }
        sm.whenInvokeDone("wait", transitionTo: "ready")
      })
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          await onThread {
            for _ in 0..<stressCount(25_000) {
              machine.fire("load")
              machine.fire("cancel")
            }
          }
        }
      }
    }
    // One more start, parked on the clock, then cancelled like the others.
    machine.fire("cancel")
    #expect(machine.fire("load"))
    await parked(clock, count: 1)
    #expect(machine.activeInvocations.count == 1)
    #expect(machine.fire("cancel"))
    await machine.waitForInvocations()
    let statistics = machine.invocationStatistics
    // No work is left sleeping: every sleep ended with its cancellation.
    #expect(clock.sleeperCount == 0)
    #expect(machine.state == "idle")
    #expect(machine.activeInvocations.isEmpty)
    #expect(statistics.started > 0)
    #expect(statistics.finished == statistics.started)
    // Every work was cancelled: its (error) result dropped, none offered to the machine.
    #expect(statistics.delivered == 0)
    #expect(statistics.dropped == statistics.started)
    // I9: the ended tasks let go of what they held.
    #expect(sentinels.watched > 0)
    #expect(sentinels.alive == 0)
  }

  @Test("A.6, I7: 100,000 results racing a cancel: a taken result always belongs to the current entry")
  func resultVersusCancelRace() async {
    let racer = InvokeRacer()
    let iterations = stressCount(100_000)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    async let canceller: Void = onThread {
      for _ in 0..<iterations {
        go.wait()
        racer.fire("cancel")
        done.signal()
      }
    }
    await onThread {
      for _ in 0..<iterations {
        racer.fire("load")
        go.signal()
        done.wait()
      }
    }
    await canceller
    racer.fire("cancel")
    await racer.waitForInvocations()
    let statistics = racer.invocationStatistics
    #expect(racer.mismatches == 0)
    #expect(statistics.started == racer.entries)
    #expect(statistics.finished == statistics.started)
    #expect(statistics.delivered + statistics.dropped == statistics.started)
    #expect(statistics.delivered == racer.taken)
    #expect(racer.activeInvocations.isEmpty)
  }
}

/// Returns once `count` tasks sleep on `clock` (bounded by the test's time limit): work is known
/// to be parked without waiting on the wall clock.
func parked(_ clock: ManualClock, count: Int) async {
  while clock.sleeperCount < count { await Task.yield() }
}
