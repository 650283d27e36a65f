import Foundation
import MallocCounter
import StateMachines

// Invoke (issue 21, INVOKE.md A.6 10): an object enters a state whose work sleeps until it is
// cancelled, and leaves it, 100k times. Memory must not grow with the cycles: every task ends,
// its registry entry goes, nothing is retained per cycle.

/// Loads while `loading`; the work waits until the state is left.
@StateMachine
final class CancelledLoader: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<CancelledLoader> { sm in
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.when("load", transitionFrom: "idle", to: "loading")
    sm.when("cancel", transitionFrom: "loading", to: "idle")
    sm.invoke("wait", in: "loading") { _ in try await Task.sleep(for: .seconds(3600)) }
    sm.whenInvokeDone("wait", transitionTo: "ready")
  }
}

/// Resident memory before and after `cycles` load/cancel cycles on one object, once every
/// started task has ended; and the cycles' allocations.
func invokeMemory(cycles: Int) async -> (baseline: Int, after: Int, allocationsPerCycle: Double)? {
  let loader = CancelledLoader()
  for _ in 0..<1_000 {
    loader.load()
    loader.cancel()
  }
  await loader.waitForInvocations()
  malloc_counter_trim()
  guard let baseline = residentBytes() else { return nil }
  let allocations = malloc_counter_count()
  for _ in 0..<cycles {
    loader.load()
    loader.cancel()
  }
  await loader.waitForInvocations()
  let allocated = malloc_counter_count() - allocations
  malloc_counter_trim()
  return (baseline, residentBytes() ?? 0, Double(allocated) / Double(cycles))
}
