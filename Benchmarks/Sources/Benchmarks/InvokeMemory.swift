import Foundation
import MallocCounter
import StateMachines

// Invoke (Invoke I8): an object enters a state whose work sleeps until it is
// cancelled, and leaves it, 100k times. Memory must not grow with the cycles: every task ends,
// its registry entry goes, nothing is retained per cycle.

/// Loads while `loading`; the work sleeps on the definition's manual clock until the state is
/// left, so what a cycle leaves behind is the invoke machinery's alone.
@StateMachine
final class CancelledLoader: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<CancelledLoader> { sm in
    sm.clock = ManualClock()
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.when("load", transitionFrom: "idle", to: "loading")
    sm.when("cancel", transitionFrom: "loading", to: "idle")
    sm.invoke("wait", in: "loading") { context in try await context.clock.sleep(for: .seconds(3600)) }
    sm.whenInvokeDone("wait", transitionTo: "ready")
  }
}

/// The same with `Task.sleep`, reported for information: its live blocks grow with the cycles,
/// which fits a cancelled sleep whose timer stays scheduled until its deadline on Linux, so it
/// measures the Swift runtime's sleep as well.
@StateMachine
final class TaskSleepLoader: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<TaskSleepLoader> { sm in
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.when("load", transitionFrom: "idle", to: "loading")
    sm.when("cancel", transitionFrom: "loading", to: "idle")
    sm.invoke("wait", in: "loading") { _ in try await Task.sleep(for: .seconds(3600)) }
    sm.whenInvokeDone("wait", transitionTo: "ready")
  }
}

/// What load/cancel cycles left behind, measured over two windows after a warm-up: `cycles`,
/// then `2 × cycles` more. Live heap blocks (allocated, not freed) count objects exactly; resident
/// memory moves with the allocator's caching too (it measured 0–66 bytes/cycle over 100k cycles
/// run to run), so it is reported, not judged. A retained object per cycle shows as live blocks
/// growing with the cycles, in the second window as in the first; one-time growth (caches, the
/// runtime's first tasks) stays in the first.
struct InvokeMemoryProbe {
  let cycles: Int
  /// Live heap blocks gained in the first window (`cycles`) and in the second (`2 × cycles`).
  let liveGrowth: (first: Int, second: Int)
  /// Resident bytes gained in each window.
  let residentGrowth: (first: Int, second: Int)
  let allocationsPerCycle: Double

  /// Blocks retained per cycle, from the second window.
  var retainedPerCycle: Double { Double(liveGrowth.second) / Double(2 * cycles) }
  /// The goal, no growth: fewer than one block retained per 1,000 cycles in the second window
  /// (an object kept per cycle would be 1 or more).
  var met: Bool { retainedPerCycle < 0.001 }
}

/// Runs the probe on one object (a `CancelledLoader`, or with `taskSleep` a `TaskSleepLoader`);
/// nil where resident memory or the heap cannot be read.
func invokeMemory(cycles: Int, taskSleep: Bool = false) async -> InvokeMemoryProbe? {
  guard malloc_counter_available() else { return nil }
  let loader = CancelledLoader()
  let sleeper = TaskSleepLoader()
  func run(_ count: Int) async {
    for _ in 0..<count {
      if taskSleep {
        sleeper.load()
        sleeper.cancel()
      } else {
        loader.load()
        loader.cancel()
      }
    }
    await sleeper.waitForInvocations()
    await loader.waitForInvocations()
    // The last tasks release their own storage just after they report their end.
    try? await Task.sleep(for: .milliseconds(100))
    malloc_counter_trim()
  }
  await run(1_000)
  guard let resident0 = residentBytes() else { return nil }
  let (live0, calls0) = (malloc_counter_live(), malloc_counter_count())
  await run(cycles)
  let (live1, resident1) = (malloc_counter_live(), residentBytes() ?? 0)
  await run(2 * cycles)
  let (live2, resident2) = (malloc_counter_live(), residentBytes() ?? 0)
  let calls = malloc_counter_count() - calls0
  return InvokeMemoryProbe(
    cycles: cycles, liveGrowth: (Int(live1 - live0), Int(live2 - live1)),
    residentGrowth: (resident1 - resident0, resident2 - resident1),
    allocationsPerCycle: Double(calls) / Double(3 * cycles))
}
