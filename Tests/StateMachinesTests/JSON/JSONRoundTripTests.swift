import Foundation
import Testing

@testable import StateMachines

/// Export (Hierarchy §9.3): a definition writes itself back as `statemachines/1`; load → export →
/// load gives the same machine, on the examples and on the differential test's random charts.
@Suite("JSON export and round trip (§7)")
struct JSONRoundTripTests {
  static func bindings(_ bind: inout Bindings<DynamicStateMachine>) {
    bind.guard("hasTrack") { _, _ in true }
    bind.action("spinUp") { _, _ in }
    bind.action("advance") { _, _ in }
  }

  @Test("§7's example: export, load, export again gives the same text, states and events")
  func exampleRoundTrip() throws {
    let first = try StateMachineDefinition<DynamicStateMachine>(
      json: Data(JSONDefinitionTests.mediaPlayer.utf8), bind: Self.bindings)
    let exported = try first.jsonDefinition()
    let second = try StateMachineDefinition<DynamicStateMachine>(json: Data(exported.utf8), bind: Self.bindings)
    #expect(try second.jsonDefinition() == exported)
    #expect(second.states == first.states)
    #expect(second.events == first.events)
    #expect(Self.structure(second) == Self.structure(first))
    #expect(exported.contains(#""guard": "hasTrack""#))
    #expect(exported.contains(#""after": ["#))
  }

  /// `Examples/Definitions` and the schema's examples.
  static func exampleDocuments() throws -> [(name: String, data: Data)] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let folder = root.appendingPathComponent("Examples/Definitions")
    var documents = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      .filter { $0.hasSuffix(".json") }
      .map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
    for (index, example) in (try JSONSchemaTests.schema()["examples"] as! [Any]).enumerated() {
      documents.append(("schema example \(index)", try JSONSerialization.data(withJSONObject: example)))
    }
    return documents
  }

  @Test("every example definition: load, export, load gives the same states, events and export")
  func everyExample() throws {
    let documents = try Self.exampleDocuments()
    #expect(documents.count >= 6)
    for (name, data) in documents {
      let bind: (inout Bindings<DynamicStateMachine>) -> Void = { bind in
        bind.bindUnknownNames(guard: { _ in { _, _ in true } }, action: { _ in { _, _ in } })
      }
      let first = try StateMachineDefinition<DynamicStateMachine>(json: data, bind: bind)
      let exported = try first.jsonDefinition()
      let second = try StateMachineDefinition<DynamicStateMachine>(json: Data(exported.utf8), bind: bind)
      #expect(second.states == first.states, "\(name): states")
      // The format lists transitions under their source, so a TBStateMachine document's events
      // may come in another first-use order; the order within a source (priority) is kept.
      if name.hasSuffix(".tb.json") {
        #expect(Set(second.events) == Set(first.events), "\(name): events")
      } else {
        #expect(second.events == first.events, "\(name): events")
      }
      #expect(try second.jsonDefinition() == exported, "\(name): export")
      // The loaded definitions themselves, not only the text they write.
      let (firstStructure, secondStructure) = (Self.structure(first), Self.structure(second))
      #expect(!firstStructure.isEmpty, "\(name): structure")
      if name.hasSuffix(".tb.json") {
        #expect(firstStructure.sorted() == secondStructure.sorted(), "\(name): structure")
      } else {
        #expect(firstStructure == secondStructure, "\(name): structure")
      }
    }
  }

  /// What a loaded definition is, read from the compiled machine rather than from its export:
  /// the initial and final states, each state's entry and exit action counts, and its diagram,
  /// which draws every transition (source, target, event, guard, timeout, notification, kind)
  /// and every junction, history, fork and join with its paths.
  static func structure(_ definition: StateMachineDefinition<DynamicStateMachine>) -> [String] {
    let compiled = definition.compiled
    var lines = ["initial \(definition.initialState)", "finals \(definition.finalStates.sorted())"]
    for (index, state) in compiled.states.enumerated() {
      lines.append("state \(state): \(compiled.entryActions[index].count) entry, \(compiled.exitActions[index].count) exit")
    }
    lines += definition.dotDiagram.split(separator: "\n").map(String.init)
    return lines
  }

  @Test("the structure compared tells apart definitions that differ in a timeout, a guard, a junction path or a kind")
  func structureSeesWhatTheExportCouldDrop() throws {
    func load(_ text: String) throws -> [String] {
      let bind: (inout Bindings<DynamicStateMachine>) -> Void = { bind in
        bind.bindUnknownNames(guard: { _ in { _, _ in true } }, action: { _ in { _, _ in } })
      }
      return Self.structure(try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8), bind: bind))
    }
    let base = #"""
      {"states": {"s": {"initial": "a", "states": {
        "a": {"on": {"go": "j"}, "after": [{"seconds": 30, "target": "b"}]},
        "j": {"type": "junction", "paths": [{"target": "b", "guard": "ready"}, {"target": "a"}]},
        "b": {"on": {"back": {"target": "a", "kind": "local", "guard": "ok"}}}}}}}
      """#
    let variants = [
      base.replacingOccurrences(of: #""seconds": 30"#, with: #""seconds": 31"#),
      base.replacingOccurrences(of: #", "after": [{"seconds": 30, "target": "b"}]"#, with: ""),
      base.replacingOccurrences(of: #", "guard": "ok""#, with: ""),
      base.replacingOccurrences(of: #", {"target": "a"}"#, with: ""),
      base.replacingOccurrences(of: #", "kind": "local""#, with: ""),
    ]
    let reference = try load(base)
    for variant in variants {
      #expect(variant != base)
      #expect(try load(variant) != reference, "\(variant)")
    }
  }

  @Test("a definition written in code exports too, until it holds a closure the format cannot name")
  func codeDefinitions() throws {
    let plain = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("idle")
      sm.addState("on") { on in
        on.addState("low")
        on.addState("high")
        on.addHistory("back", .deep)
      }
      sm.when("power", transitionFrom: "idle", to: "on/back")
      sm.when("up", transitionFrom: "low", to: "high", kind: .local)
      sm.when("power", transitionFrom: "on", to: "idle")
    }
    let text = try plain.jsonDefinition()
    let loaded = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    #expect(loaded.states == plain.states)
    #expect(try loaded.jsonDefinition() == text)
    let withClosure = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("a")
      sm.when("go", transitionFrom: "a", to: "a").guarded { _ in true }
    }
    #expect(throws: DefinitionError.invalidValue("a guard written in code ('go')", context: "JSON export (the format cannot express it)")) {
      try withClosure.jsonDefinition()
    }
  }

  /// A random chart (the differential test's) as a `statemachines/1` document whose guards and
  /// actions are names; `nil` for a chart with a wildcard, which the format cannot express.
  static func document(_ chart: RandomChart) -> String? {
    if chart.transitions.contains(where: { $0.source == nil }) { return nil }
    func quoted(_ text: String) -> String { "\"\(text)\"" }
    func transition(_ transition: RandomChart.Transition, index: Int) -> String {
      var fields: [String] = []
      let targets = transition.targets.map { quoted(chart.path($0)) }
      if targets.count == 1 { fields.append("\"target\": \(targets[0])") }
      if targets.count > 1 { fields.append("\"target\": [\(targets.joined(separator: ", "))]") }
      if transition.kind == .local { fields.append("\"kind\": \"local\"") }
      if let guardID = transition.guardID { fields.append("\"guard\": \"g\(guardID)\"") }
      if transition.hasAction { fields.append("\"actions\": [\"act\(index)\"]") }
      return "{\(fields.joined(separator: ", "))}"
    }
    func state(_ name: String) -> String {
      let node = chart.nodes[name]!
      var fields: [String] = []
      switch node.kind {
      case .atomic: break
      case .compound: if let initial = node.initial { fields.append("\"initial\": \(quoted(chart.path(initial)))") }
      case .parallel: fields.append("\"type\": \"parallel\"")
      case .final: fields.append("\"type\": \"final\"")
      case .shallowHistory: fields.append("\"type\": \"history\", \"history\": \"shallow\"")
      case .deepHistory: fields.append("\"type\": \"history\", \"history\": \"deep\"")
      }
      let isHistory = node.kind == .shallowHistory || node.kind == .deepHistory
      if !isHistory && !chart.quietStates.contains(name) {
        fields.append("\"entry\": [\"enter_\(name)\"], \"exit\": [\"exit_\(name)\"]")
      }
      var on: [(String, [String])] = []
      var always: [String] = []
      var done: [String] = []
      for (index, candidate) in chart.transitions.enumerated() where candidate.source == name {
        let written = transition(candidate, index: index)
        if candidate.event == nil {
          always.append(written)
        } else if candidate.event!.hasPrefix("done.state.") {
          done.append(written)
        } else if let position = on.firstIndex(where: { $0.0 == candidate.event! }) {
          on[position].1.append(written)
        } else {
          on.append((candidate.event!, [written]))
        }
      }
      if !on.isEmpty {
        fields.append("\"on\": {\(on.map { "\(quoted($0.0)): [\($0.1.joined(separator: ", "))]" }.joined(separator: ", "))}")
      }
      if !always.isEmpty { fields.append("\"always\": [\(always.joined(separator: ", "))]") }
      if !done.isEmpty { fields.append("\"onDone\": [\(done.joined(separator: ", "))]") }
      if !node.children.isEmpty {
        fields.append("\"states\": {\(node.children.map { "\(quoted($0)): \(state($0))" }.joined(separator: ", "))}")
      }
      return "{\(fields.joined(separator: ", "))}"
    }
    var top: [String] = []
    if let initial = chart.initial { top.append("\"initial\": \(quoted(chart.path(initial)))") }
    top.append("\"states\": {\(chart.topLevel.map { "\(quoted($0)): \(state($0))" }.joined(separator: ", "))}")
    return "{\(top.joined(separator: ", "))}"
  }

  static func bindings(_ chart: RandomChart, log: TestRecorder, step: TestRecorder) -> (inout Bindings<DynamicStateMachine>) -> Void {
    { bind in
      for name in chart.documentOrder {
        bind.action("enter_\(name)") { _, _ in log.append("enter:\(name)") }
        bind.action("exit_\(name)") { _, _ in log.append("exit:\(name)") }
      }
      for (index, transition) in chart.transitions.enumerated() {
        if let guardID = transition.guardID {
          bind.guard("g\(guardID)") { _, _ in RandomChart.guardPasses(guardID, step: step["events"]) }
        }
        let raises = transition.raises
        bind.action("act\(index)") { machine, _ in
          log.append("act:t\(index)")
          if let raises { machine.fire(raises) }
        }
      }
    }
  }

  /// Runs `definition` on the seed's events; the trace and configuration after each.
  static func run(_ definition: StateMachineDefinition<DynamicStateMachine>, log: TestRecorder, step: TestRecorder, seed: UInt64) -> [String] {
    log.clear()
    step.clear()
    let machine = DynamicStateMachine(definition)
    try? machine.startStateMachine()
    var random = SeededGenerator(seed: seed &* 7919)
    var observed = ["\(log.lines) \(machine.activeStates)"]
    for _ in 0..<Int.random(in: 6...14, using: &random) {
      let event = random.pick(RandomChart.externalEvents)
      step.increment("events")
      _ = machine.fire(event)
      observed.append("\(event): \(log.lines) \(machine.activeStates)")
    }
    return observed
  }

  @Test("random charts: code → JSON → definition → export → definition, the same trace on the same events")
  func randomCharts() throws {
    var compared = 0
    for seed in UInt64(1)...400 {
      let chart = RandomChart(seed: seed)
      guard let text = Self.document(chart) else { continue }
      let log = TestRecorder()
      let step = TestRecorder()
      let code = DifferentialTests.definition(chart, log: log, step: step)
      guard code.definitionError == nil else { continue }
      let bind = Self.bindings(chart, log: log, step: step)
      let loaded: StateMachineDefinition<DynamicStateMachine>
      let reloaded: StateMachineDefinition<DynamicStateMachine>
      do {
        loaded = try StateMachineDefinition(json: Data(text.utf8), bind: bind) { sm in
          sm.maxStepsPerRunToCompletion = AppendixDOracle.maxSteps
          sm.maxEventlessMicrosteps = AppendixDOracle.maxEventless
          sm.log = StateMachineLog { _ in }
        }
        let exported = try loaded.jsonDefinition()
        reloaded = try StateMachineDefinition(json: Data(exported.utf8), bind: bind) { sm in
          sm.maxStepsPerRunToCompletion = AppendixDOracle.maxSteps
          sm.maxEventlessMicrosteps = AppendixDOracle.maxEventless
          sm.log = StateMachineLog { _ in }
        }
        #expect(try reloaded.jsonDefinition() == exported, "seed \(seed): export is stable")
      } catch {
        Issue.record("seed \(seed): \(error)\n\(text)")
        continue
      }
      let expected = Self.run(code, log: log, step: step, seed: seed)
      #expect(Self.run(loaded, log: log, step: step, seed: seed) == expected, "seed \(seed): JSON")
      #expect(Self.run(reloaded, log: log, step: step, seed: seed) == expected, "seed \(seed): exported JSON")
      // The same states; the code puts a root initialState set before its state first (its
      // placeholder), the document in key order.
      #expect(Set(loaded.states) == Set(code.states), "seed \(seed): the same states")
      #expect(reloaded.states == loaded.states && reloaded.events == loaded.events, "seed \(seed): the same order")
      compared += 1
    }
    #expect(compared > 250, "most charts have no wildcard: \(compared) compared")
  }
}
