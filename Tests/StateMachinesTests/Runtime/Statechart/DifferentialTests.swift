import Foundation
import Testing

@testable import StateMachines

/// The compiled statechart runtime against the naive Appendix D oracle (Hierarchy §9.4), on
/// seeded random charts driven by random events: the same callback trace and the same
/// configuration after start and after every event, with the S1 invariant checked each time; in
/// every other chart some states invoke work, and the running invocations must be the oracle's
/// (Appendix D's `statesToInvoke`, Invoke I2, I8). There the script also completes or fails
/// chosen work, running or already cancelled, from outside the machine or from the first callback
/// of a run (which may post an event first): the results taken and dropped (I6, I7), their order
/// after the run's internal events and posts (I12) and the configuration after must be the
/// oracle's too.
///
/// `STATEMACHINES_DIFFERENTIAL_CASES` sets the number of charts (10,000 by default, what
/// `.ci/run` runs); `STATEMACHINES_DIFFERENTIAL_SEED` the first seed.
@Suite("Differential: runtime vs Appendix D oracle (§9.4)")
struct DifferentialTests {
  static var caseCount: Int {
    // A value that is not a number counts as zero cases, which fails the test.
    ProcessInfo.processInfo.environment["STATEMACHINES_DIFFERENTIAL_CASES"].map { Int($0) ?? 0 } ?? 10_000
  }
  static var firstSeed: UInt64 {
    ProcessInfo.processInfo.environment["STATEMACHINES_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 1
  }

  /// Builds the chart with the DSL; callbacks record into `log`, guards read `step`.
  /// The states that invoke work in the chart of `seed` (Invoke I2, I8): in every other
  /// chart, about a third of its states that may invoke, so that most charts keep the paths of
  /// machines without invokes.
  static func invokingStates(_ chart: RandomChart, seed: UInt64) -> Set<String> {
    guard seed % 2 == 0 else { return [] }
    var random = SeededGenerator(seed: seed &* 104_729)
    return Set(
      chart.documentOrder.filter { name in
        let kind = chart.nodes[name]!.kind
        return kind != .final && kind != .shallowHistory && kind != .deepHistory && Int.random(in: 0..<3, using: &random) == 0
      })
  }

  /// The chart as a definition. With `plan`, the guards answer the plan (the path generator's
  /// test) instead of ``RandomChart/guardPasses(_:step:)``.
  static func definition(
    _ chart: RandomChart, log: TestRecorder, step: TestRecorder, invoking: Set<String> = [],
    script: InvokeScript? = nil, plan: GuardPlan? = nil
  ) -> StateMachineDefinition<DynamicStateMachine> {
    // Every callback records its line; in a chart with invokes, the first of a run fires the hook.
    let record: (String, DynamicStateMachine) -> Void = { line, machine in
      log.append(line)
      script?.fireHook(machine)
    }
    return StateMachineDefinition<DynamicStateMachine> { sm in
      sm.maxStepsPerRunToCompletion = AppendixDOracle.maxSteps
      sm.maxEventlessMicrosteps = AppendixDOracle.maxEventless
      sm.log = StateMachineLog { _ in }
      if let initial = chart.initial { sm.initialState = chart.path(initial) }
      for name in chart.documentOrder {
        let node = chart.nodes[name]!
        let path = chart.path(name)
        switch node.kind {
        case .atomic: sm.addState(path)
        case .final: sm.addFinalState(path)
        case .compound:
          sm.addState(path) { scope in
            if let initial = node.initial { scope.initialState = chart.path(initial) }
          }
        case .parallel: sm.addParallelState(path) { _ in }
        case .shallowHistory: sm.addHistory(path, .shallow)
        case .deepHistory: sm.addHistory(path, .deep)
        }
        if invoking.contains(name), let gates = script?.gates {
          // The input records the start; the work waits for the script to open its gate (even
          // once cancelled, so that its result can arrive stale), then succeeds or fails.
          sm.invoke("do-\(name)", in: path, input: { machine, _ in record("invoke:\(name)", machine) }) { context in
            if await gates.wait(context.generation) { throw InvokeScript.Failure() }
            return context.generation
          }
        }
        if node.kind != .shallowHistory && node.kind != .deepHistory && !chart.quietStates.contains(name) {
          sm.onEntry(path) { machine in record("enter:\(name)", machine) }
          sm.onExit(path) { machine in record("exit:\(name)", machine) }
        }
      }
      for (index, transition) in chart.transitions.enumerated() {
        let targets = transition.targets.map { chart.path($0) }
        let declaration: TransitionDeclaration<DynamicStateMachine>
        if transition.event == nil {
          declaration = sm.always(transitionFrom: chart.path(transition.source!), to: targets[0])
        } else if let event = transition.event, event.hasPrefix("done.state.") {
          declaration = sm.whenDone(chart.path(transition.source!), transitionTo: targets[0])
        } else if let event = transition.event, event.hasPrefix("done.invoke.") {
          declaration = sm.whenInvokeDone(String(event.dropFirst("done.invoke.".count)), transitionTo: targets[0])
        } else if let event = transition.event, event.hasPrefix("error.invoke.") {
          declaration = sm.whenInvokeFailed(String(event.dropFirst("error.invoke.".count)), transitionTo: targets[0])
        } else if let source = transition.source {
          let from = chart.path(source)
          if targets.isEmpty {
            declaration = sm.when(transition.event!, transitionFrom: from, to: from, kind: .internal)
          } else if targets.count > 1 {
            declaration = sm.when(transition.event!, transitionFrom: from, to: targets, kind: transition.kind)
          } else {
            declaration = sm.when(transition.event!, transitionFrom: from, to: targets[0], kind: transition.kind)
          }
        } else {
          declaration = sm.when(transition.event!, transitionFromAnyStateTo: targets[0])
        }
        if let guardID = transition.guardID {
          if let plan {
            declaration.guarded { _ in plan.next() }
          } else {
            declaration.guarded { _ in RandomChart.guardPasses(guardID, step: step["events"]) }
          }
        }
        let raises = transition.raises
        if transition.hasAction {
          declaration.action { machine in
            record("act:t\(index)", machine)
            if let raises { machine.fire(raises) }
          }
        }
      }
    }
  }

  /// Checks S1 on a configuration given as paths: closed under parent, one child per active
  /// compound state, every region of an active parallel state.
  static func legalConfiguration(_ chart: RandomChart, _ active: Set<String>) -> String? {
    for name in active {
      if let parent = chart.nodes[name]!.parent, !active.contains(parent) { return "\(name) without its parent" }
      let node = chart.nodes[name]!
      let childStates = node.children.filter { ![.shallowHistory, .deepHistory].contains(chart.nodes[$0]!.kind) }
      let activeChildren = childStates.filter(active.contains)
      if node.kind == .compound && activeChildren.count != 1 { return "\(name) has \(activeChildren.count) active children" }
      if node.kind == .parallel && activeChildren.count != childStates.count { return "\(name) misses a region" }
    }
    if !chart.topLevel.contains(where: active.contains) && !active.isEmpty { return "no top-level state" }
    return nil
  }

  /// The cases run in this many parallel chunks.
  static let chunks = 8

  @Test("random charts: same trace and configuration as the oracle, S1 after every step", arguments: 0..<chunks)
  func randomCharts(chunk: Int) async throws {
    // Asked for no case, the test would compare nothing and pass.
    try #require(Self.caseCount > 0, "STATEMACHINES_DIFFERENTIAL_CASES must be positive")
    var failures = 0
    let count = UInt64(Self.caseCount)
    let chunkSize = (count + UInt64(Self.chunks) - 1) / UInt64(Self.chunks)
    let start = Self.firstSeed + UInt64(chunk) * chunkSize
    let end = min(start + chunkSize, Self.firstSeed + count)
    for seed in start..<max(start, end) {
      if let failure = await Self.compare(seed: seed) {
        failures += 1
        Issue.record("seed \(seed): \(failure)")
        if failures >= 3 { break }
      }
    }
  }

  /// Runs one seed through both; the first difference, or nil. Work still waiting at the end is
  /// released after the machine stopped: every start then has finished, its result dropped (I9).
  static func compare(seed: UInt64) async -> String? {
    var chart = RandomChart(seed: seed)
    let log = TestRecorder()
    let step = TestRecorder()
    let invoking = invokingStates(chart, seed: seed)
    let script = invoking.isEmpty ? nil : InvokeScript(seed: seed)
    script?.addResultTransitions(&chart, invoking: invoking)
    let definition = Self.definition(chart, log: log, step: step, invoking: invoking, script: script)
    if let error = definition.definitionError { return "definition rejected: \(error)\n\(chart)" }
    let machine = DynamicStateMachine(definition)
    let oracle = AppendixDOracle(chart, invokingStates: invoking)
    var failure = await run(chart, machine, oracle, log: log, step: step, script: script, seed: seed)
    try? machine.stopStateMachine()
    if let script {
      await script.releaseAll(machine)
      let statistics = machine.invocationStatistics
      if failure == nil, statistics.finished != statistics.started || statistics.delivered != oracle.delivered
        || statistics.delivered + statistics.dropped != statistics.started
      {
        failure = "after the stop: \(statistics), the oracle delivered \(oracle.delivered)\n\(chart)"
      }
    }
    return failure
  }

  /// Drives both with the same random events (and, with invokes, results); the first difference.
  static func run(
    _ chart: RandomChart, _ machine: DynamicStateMachine, _ oracle: AppendixDOracle, log: TestRecorder,
    step: TestRecorder, script: InvokeScript?, seed: UInt64
  ) async -> String? {
    // Start may fail like any step (an eventless loop, say); the oracle then fails alike.
    try? machine.startStateMachine()
    oracle.start()
    var random = SeededGenerator(seed: seed &* 7919)
    var events: [String] = ["(start)"]
    for index in 0...Int.random(in: 6...14, using: &random) {
      if index > 0 {
        // With invokes, the script may release work instead of firing an event (I6, I7).
        if let script, let release = script.nextRelease(oracle) {
          events.append("release #\(release.generation)\(release.failed ? " failing" : "")")
          await script.release(release, machine)
          oracle.finishInvocation(release.generation, failed: release.failed)
        } else {
          let event = random.pick(RandomChart.externalEvents)
          let hook = script?.nextHook(oracle)
          events.append(event + (hook.map { " (hook: \($0))" } ?? ""))
          step.increment("events")
          script?.arm(hook)
          let accepted = machine.fire(event)
          let taken = oracle.send(event, hook: hook)
          if accepted != taken {
            return "fire returned \(accepted), the oracle \(taken ? "took" : "took no") transition, after \(events)\n\(chart)"
          }
          if let script, let difference = await script.finishHook(machine, oracle) {
            return "after \(events): \(difference)\n\(chart)"
          }
        }
      }
      let active = Set(machine.activeStates.map { String($0.split(separator: "/").last!) })
      if log.lines != oracle.trace || active != oracle.configuration {
        let first = Array(zip(log.lines, oracle.trace)).firstIndex { $0 != $1 } ?? min(log.lines.count, oracle.trace.count)
        let window = max(0, first - 12)
        return """
          after \(events): traces differ at entry \(first) of \(log.lines.count) / \(oracle.trace.count)
          runtime …\(log.lines[window..<min(log.lines.count, first + 6)]) configuration \(active.sorted())
          oracle  …\(oracle.trace[window..<min(oracle.trace.count, first + 6)]) configuration \(oracle.configuration.sorted())
          \(chart)
          """
      }
      let running = machine.activeInvocations.map { "\($0.id.dropFirst("do-".count))#\($0.generation)" }.sorted()
      let expected = oracle.invocations.map { "\($0.state)#\($0.generation)" }.sorted()
      if running != expected {
        return "after \(events): invocations running \(running), the oracle's \(expected)\n\(chart)"
      }
      if script != nil {
        let statistics = machine.invocationStatistics
        let expected = (oracle.starts.count, oracle.delivered, oracle.dropped)
        if (statistics.started, statistics.delivered, statistics.dropped) != expected {
          return "after \(events): \(statistics), the oracle's (started, delivered, dropped) \(expected)\n\(chart)"
        }
      }
      if let illegal = legalConfiguration(chart, active) { return "S1 violated after \(events): \(illegal)\n\(chart)" }
      if machine.isStateMachineTerminated == oracle.running { return "termination differs after \(events)\n\(chart)" }
    }
    return nil
  }
}
