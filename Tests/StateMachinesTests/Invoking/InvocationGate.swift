import Foundation

@testable import StateMachines

/// Test-owned completion of invoked work (INVOKE.md I16): work awaits its generation's gate, the
/// test opens it. A gate ignores cancellation on purpose, so that work can finish after its state
/// was left (the stale-result scenario, I7).
final class InvocationGates: @unchecked Sendable {
  private let lock = NSLock()
  private var opened: Set<UInt64> = []
  private var waiters: [UInt64: [CheckedContinuation<Void, Never>]] = [:]

  func open(_ generation: UInt64) {
    let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
      opened.insert(generation)
      return waiters.removeValue(forKey: generation) ?? []
    }
    for waiter in resumed { waiter.resume() }
  }

  func wait(_ generation: UInt64) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isOpen = lock.withLock {
        if opened.contains(generation) { return true }
        waiters[generation, default: []].append(continuation)
        return false
      }
      if isOpen { continuation.resume() }
    }
  }
}

/// Waits (polling, bounded by the test's time limit) until `condition` holds.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async {
  while !condition() { try? await Task.sleep(for: .milliseconds(1)) }
}

/// A value the work holds, to check that cancelled or finished work lets it go (I9).
final class InvocationSentinel: Sendable {}
