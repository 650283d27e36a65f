import Foundation

/// Runs the timeouts of every machine on one clock.
///
/// A timeout is an entry in a deadline heap, not a task of its own: cancelling it frees its
/// memory at once (a cancelled `Task.sleep` would hold its task until its deadline).
protocol TimeoutScheduler: AnyObject, Sendable {
  /// Arms `fire` to run `timeout` from now; returns the ID that cancels it.
  func schedule(after timeout: Duration, _ fire: @escaping @Sendable () async -> Void) -> UInt64
  /// Cancels a timeout that has not fired; does nothing otherwise.
  func cancel(_ id: UInt64)
  /// The number of timeouts armed now.
  var armedTimeoutCount: Int { get }
}

/// The scheduler of `clock`: the clock itself for a ``ManualClock``, one shared scheduler for
/// the continuous and the suspending clock, a new one for any other clock.
func timeoutScheduler(for clock: any Clock<Duration>) -> any TimeoutScheduler {
  if let manual = clock as? ManualClock { return manual }
  if clock is ContinuousClock { return continuousClockScheduler }
  if clock is SuspendingClock { return suspendingClockScheduler }
  func make<C: Clock<Duration>>(_ clock: C) -> any TimeoutScheduler { SleepingTimeoutScheduler(clock) }
  return make(clock)
}

private let continuousClockScheduler = SleepingTimeoutScheduler(ContinuousClock())
private let suspendingClockScheduler = SleepingTimeoutScheduler(SuspendingClock())

/// A deadline heap and one task that sleeps until the earliest deadline. The task sleeps at most
/// a second at a time, so a sleep that an earlier deadline interrupts (by cancelling it) holds
/// its memory for at most that second; it ends when no timeout is armed.
///
/// `@unchecked Sendable`: `queue` and `sleeper` are read and written only under `lock`; `clock`
/// is a `let` (a clock is `Sendable`).
final class SleepingTimeoutScheduler<C: Clock<Duration>>: TimeoutScheduler, @unchecked Sendable {
  private let clock: C
  private let lock = NSLock()
  private var queue = TimeoutQueue<C.Instant>()
  /// The sleeping task and when it wakes; `nil` while no timeout is armed.
  private var sleeper: (task: Task<Void, Never>, wake: C.Instant)?

  init(_ clock: C) {
    self.clock = clock
  }

  var armedTimeoutCount: Int { lock.locked { queue.count } }

  func schedule(after timeout: Duration, _ fire: @escaping @Sendable () async -> Void) -> UInt64 {
    let deadline = clock.now.advanced(by: timeout)
    return lock.locked {
      let id = queue.insert(deadline, fire)
      if sleeper.map({ deadline < $0.wake }) ?? true { startSleeper(until: deadline) }
      return id
    }
  }

  func cancel(_ id: UInt64) {
    lock.locked {
      queue.remove(id)
      if queue.count == 0, let current = sleeper {
        current.task.cancel()
        sleeper = nil
      }
    }
  }

  /// Replaces the sleeper by one that wakes at `deadline` (at most a second from now). Under the
  /// lock.
  private func startSleeper(until deadline: C.Instant) {
    sleeper?.task.cancel()
    let wake = min(deadline, clock.now.advanced(by: .seconds(1)))
    let task = Task { [weak self] in
      var wake = wake
      while let scheduler = self {
        do { try await scheduler.clock.sleep(until: wake, tolerance: nil) } catch { return }
        guard let next = await scheduler.deliverDue() else { return }
        wake = next
      }
    }
    sleeper = (task, wake)
  }

  /// Fires what is due; returns when to wake next, or `nil` if this sleeper should end (it was
  /// replaced, or no timeout is armed).
  private func deliverDue() async -> C.Instant? {
    let due = lock.locked { Task.isCancelled ? [] : queue.popDue(at: clock.now) }
    for fire in due { await fire() }
    return lock.locked {
      if Task.isCancelled { return nil }
      guard let earliest = queue.earliestDeadline() else {
        sleeper = nil
        return nil
      }
      let wake = min(earliest, clock.now.advanced(by: .seconds(1)))
      if let current = sleeper { sleeper = (current.task, wake) }
      return wake
    }
  }
}
