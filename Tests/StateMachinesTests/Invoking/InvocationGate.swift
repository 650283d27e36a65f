import Foundation

@testable import StateMachines

/// Test-owned completion of invoked work (Invoke I16): work awaits its generation's gate, the
/// test opens it. A gate ignores cancellation on purpose, so that work can finish after its state
/// was left (the stale-result scenario, I7).
final class InvocationGates: @unchecked Sendable {
  private let lock = NSLock()
  /// The opened gates, each with whether its work is to fail.
  private var opened: [UInt64: Bool] = [:]
  private var waiters: [UInt64: [CheckedContinuation<Bool, Never>]] = [:]

  /// Opens the gate of `generation`: its work goes on, told to fail if `failing`.
  func open(_ generation: UInt64, failing: Bool = false) {
    let resumed: [CheckedContinuation<Bool, Never>] = lock.withLock {
      opened[generation] = failing
      return waiters.removeValue(forKey: generation) ?? []
    }
    for waiter in resumed { waiter.resume(returning: failing) }
  }

  /// Returns once the gate of `generation` is open: whether the work is to fail.
  @discardableResult
  func wait(_ generation: UInt64) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let failing: Bool? = lock.withLock {
        if let failing = opened[generation] { return failing }
        waiters[generation, default: []].append(continuation)
        return nil
      }
      if let failing { continuation.resume(returning: failing) }
    }
  }
}

/// Waits (polling, bounded by the test's time limit) until `condition` holds: yields instead of
/// sleeping on the wall clock, so that work parked on a `ManualClock` (its `sleeperCount`) or on
/// a gate is seen at once.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async {
  while !condition() { await Task.yield() }
}

/// A value the work holds, to check that cancelled or finished work lets it go (I9).
final class InvocationSentinel: Sendable {}
