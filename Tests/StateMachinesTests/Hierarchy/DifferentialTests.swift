import Foundation
import StateMachines
import Testing

/// The compiled statechart runtime against the naive Appendix D oracle (HIERARCHY.md §9.4), on
/// seeded random charts driven by random events: the same callback trace and the same
/// configuration after start and after every event, with the S1 invariant checked each time; in
/// every other chart some states invoke work, and the running invocations must be the oracle's
/// (Appendix D's `statesToInvoke`, INVOKE.md I2, I8).
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
  /// The states that invoke work in the chart of `seed` (INVOKE.md I2, I8): in every other
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

  static func definition(
    _ chart: RandomChart, log: TestRecorder, step: TestRecorder, invoking: Set<String> = []
  ) -> StateMachineDefinition<DynamicStateMachine> {
    StateMachineDefinition<DynamicStateMachine> { sm in
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
        if invoking.contains(name) {
          // The input records the start; the work runs until its state is left.
          sm.invoke("do-\(name)", in: path, input: { _, _ in log.append("invoke:\(name)") }) { _ in
            try await Task.sleep(for: .seconds(3600))
          }
        }
        if node.kind != .shallowHistory && node.kind != .deepHistory && !chart.quietStates.contains(name) {
          sm.onEntry(path) { _ in log.append("enter:\(name)") }
          sm.onExit(path) { _ in log.append("exit:\(name)") }
        }
      }
      for (index, transition) in chart.transitions.enumerated() {
        let targets = transition.targets.map { chart.path($0) }
        let declaration: TransitionDeclaration<DynamicStateMachine>
        if transition.event == nil {
          declaration = sm.always(transitionFrom: chart.path(transition.source!), to: targets[0])
        } else if let event = transition.event, event.hasPrefix("done.state.") {
          declaration = sm.whenDone(chart.path(transition.source!), transitionTo: targets[0])
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
          declaration.guarded { _ in RandomChart.guardPasses(guardID, step: step["events"]) }
        }
        let raises = transition.raises
        if transition.hasAction {
          declaration.action { machine in
            log.append("act:t\(index)")
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
  func randomCharts(chunk: Int) throws {
    // Asked for no case, the test would compare nothing and pass.
    try #require(Self.caseCount > 0, "STATEMACHINES_DIFFERENTIAL_CASES must be positive")
    var failures = 0
    let count = UInt64(Self.caseCount)
    let chunkSize = (count + UInt64(Self.chunks) - 1) / UInt64(Self.chunks)
    let start = Self.firstSeed + UInt64(chunk) * chunkSize
    let end = min(start + chunkSize, Self.firstSeed + count)
    for seed in start..<max(start, end) {
      if let failure = Self.compare(seed: seed) {
        failures += 1
        Issue.record("seed \(seed): \(failure)")
        if failures >= 3 { break }
      }
    }
  }

  /// Runs one seed through both; the first difference, or nil.
  static func compare(seed: UInt64) -> String? {
    let chart = RandomChart(seed: seed)
    let log = TestRecorder()
    let step = TestRecorder()
    let invoking = invokingStates(chart, seed: seed)
    let definition = Self.definition(chart, log: log, step: step, invoking: invoking)
    if let error = definition.definitionError { return "definition rejected: \(error)\n\(chart)" }
    let machine = DynamicStateMachine(definition)
    let oracle = AppendixDOracle(chart, invokingStates: invoking)
    defer { try? machine.stopStateMachine() }
    // Start may fail like any step (an eventless loop, say); the oracle then fails alike.
    try? machine.startStateMachine()
    oracle.start()
    var random = SeededGenerator(seed: seed &* 7919)
    var events: [String] = ["(start)"]
    for index in 0...Int.random(in: 6...14, using: &random) {
      if index > 0 {
        let event = random.pick(RandomChart.externalEvents)
        events.append(event)
        step.increment("events")
        let accepted = machine.fire(event)
        let taken = oracle.send(event)
        if accepted != taken {
          return "fire returned \(accepted), the oracle \(taken ? "took" : "took no") transition, after \(events)\n\(chart)"
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
      let running = Set(machine.activeInvocations.map { String($0.id.dropFirst("do-".count)) })
      if running != oracle.invoked {
        return "after \(events): invocations running \(running.sorted()), the oracle's \(oracle.invoked.sorted())\n\(chart)"
      }
      if let illegal = legalConfiguration(chart, active) { return "S1 violated after \(events): \(illegal)\n\(chart)" }
      if machine.isStateMachineTerminated == oracle.running { return "termination differs after \(events)\n\(chart)" }
    }
    return nil
  }
}
