import Foundation

@testable import StateMachines

/// The differential test's invoked work, completed on command (Invoke A.6): every work
/// waits for its gate, which ignores cancellation, so that a cancelled work can still end and its
/// result arrive stale (I7). The script releases running or cancelled work between events, or
/// arms a hook that the first callback of the next run fires: it posts an event, then releases
/// work whose result must wait for the run's end (I12). The choices come from the seed alone.
final class InvokeScript: @unchecked Sendable {
  struct Failure: Error {}

  /// Work to release between events: succeeding (`done.invoke.*`) or failing (`error.invoke.*`).
  struct Release {
    let generation: UInt64
    let failed: Bool
  }

  let gates = InvocationGates()
  /// The script's choices; used by the test's thread only.
  private var random: SeededGenerator
  /// The generations whose gate was opened; on the test's thread only.
  private var released: Set<UInt64> = []
  private let lock = NSLock()
  private var armed: AppendixDOracle.Hook?
  private var fired: AppendixDOracle.Hook?

  init(seed: UInt64) { random = SeededGenerator(seed: seed &* 31_337) }

  /// Gives some invoking states a transition on their work's success and on its failure (I6);
  /// a result no transition takes changes nothing.
  func addResultTransitions(_ chart: inout RandomChart, invoking: Set<String>) {
    let states = chart.stateNames
    for name in chart.documentOrder where invoking.contains(name) {
      for prefix in ["done.invoke.", "error.invoke."] where random.chance(0.6) {
        let guardID = random.chance(0.3) ? Int.random(in: 0..<1000, using: &random) : nil
        let raises = random.chance(0.2) ? random.pick(RandomChart.internalEvents) : nil
        chart.transitions.append(
          RandomChart.Transition(
            source: name, event: prefix + "do-\(name)", targets: [random.pick(states)], kind: .external,
            guardID: guardID, raises: raises))
      }
    }
  }

  /// The started work whose gate is still closed: running, or cancelled and parked.
  private func parked(_ oracle: AppendixDOracle) -> [UInt64] {
    oracle.starts.indices.map { UInt64($0 + 1) }.filter { !released.contains($0) }
  }

  /// Sometimes work to release now instead of the next event: a running one (its result is
  /// taken) or a cancelled one (its result is dropped).
  func nextRelease(_ oracle: AppendixDOracle) -> Release? {
    let parked = parked(oracle)
    let running = parked.filter { generation in oracle.invocations.contains { $0.generation == generation } }
    let stale = parked.filter { !running.contains($0) }
    let roll = Double.random(in: 0..<1, using: &random)
    if roll < 0.25, !running.isEmpty { return Release(generation: random.pick(running), failed: random.chance(0.4)) }
    if roll < 0.35, !stale.isEmpty { return Release(generation: random.pick(stale), failed: random.chance(0.4)) }
    return nil
  }

  /// Sometimes a hook for the next event's run.
  func nextHook(_ oracle: AppendixDOracle) -> AppendixDOracle.Hook? {
    let parked = parked(oracle)
    guard !parked.isEmpty, random.chance(0.3) else { return nil }
    let post = random.chance(0.5) ? random.pick(RandomChart.externalEvents) : nil
    return AppendixDOracle.Hook(post: post, generation: random.pick(parked), failed: random.chance(0.4))
  }

  /// Opens a gate from outside the machine and returns once the work's result was processed.
  func release(_ release: Release, _ machine: DynamicStateMachine) async {
    released.insert(release.generation)
    gates.open(release.generation, failing: release.failed)
    await machine.waitForFinishedInvocations(released.count)
  }

  func arm(_ hook: AppendixDOracle.Hook?) {
    lock.withLock { armed = hook }
  }

  /// Called by every callback: the first one after `arm` posts and releases.
  func fireHook(_ machine: DynamicStateMachine) {
    let hook: AppendixDOracle.Hook? = lock.withLock {
      guard let hook = armed else { return nil }
      (armed, fired) = (nil, hook)
      return hook
    }
    guard let hook else { return }
    if let post = hook.post { _ = machine.post(post) }
    gates.open(hook.generation, failing: hook.failed)
  }

  /// After the event's run: the hook must have run where the oracle's did; then waits until the
  /// released work's result was processed. The difference, or nil.
  func finishHook(_ machine: DynamicStateMachine, _ oracle: AppendixDOracle) async -> String? {
    let fired: AppendixDOracle.Hook? = lock.withLock {
      defer { (armed, self.fired) = (nil, nil) }
      return self.fired
    }
    if fired != oracle.firedHook { return "the hook ran in the runtime: \(String(describing: fired)), in the oracle: \(String(describing: oracle.firedHook))" }
    if let fired {
      released.insert(fired.generation)
      await machine.waitForFinishedInvocations(released.count)
    }
    return nil
  }

  /// Opens every gate still closed and waits until all work has ended.
  func releaseAll(_ machine: DynamicStateMachine) async {
    let started = UInt64(machine.invocationStatistics.started)
    if started > 0 {
      for generation in 1...started where !released.contains(generation) { gates.open(generation) }
    }
    await machine.waitForInvocations()
  }
}
