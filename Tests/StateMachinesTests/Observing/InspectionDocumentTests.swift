import Foundation
import Testing

@testable import StateMachines

// The inspection document and DOT with ids (Inspecting B.3: `id="s<index>"` on nodes
// and clusters, `id="t<index>"` on edges, the same indexes as the document and the records).

@Suite struct InspectionDocumentTests {
  /// The ids Graphviz put on `<g>` elements of class `kind` (node, cluster, edge).
  static func ids(in svg: String, kind: String) -> Set<String> {
    let pattern = try! NSRegularExpression(pattern: "<g id=\"([st][0-9-]+)\" class=\"\(kind)\">")
    let range = NSRange(svg.startIndex..., in: svg)
    return Set(pattern.matches(in: svg, range: range).map { String(svg[Range($0.range(at: 1), in: svg)!]) })
  }

  /// The DOT text without the ids: what `dotDiagram` draws.
  static func withoutIdentifiers(_ dot: String) -> String {
    dot.replacingOccurrences(of: #", id="[st][0-9-]+""#, with: "", options: .regularExpression)
      .replacingOccurrences(of: #"\n *id="s[0-9]+";"#, with: "", options: .regularExpression)
      .replacingOccurrences(of: #"\[id="t[0-9-]+"\]"#, with: "[]", options: .regularExpression)
      .replacingOccurrences(of: #"\[id="#, with: "[", options: .regularExpression)
  }

  /// Checks that every state and transition of `definition`'s document has its element in the
  /// SVG `dot` renders: compound and parallel states as clusters, the others as nodes.
  func checkIdentifiers<Model>(_ definition: StateMachineDefinition<Model>) throws {
    let document = definition.inspectionDocument
    let dot = definition.dotDiagram(identifiers: true)
    #expect(Self.withoutIdentifiers(dot) == definition.dotDiagram)
    let clusters = Set(document.states.filter { ["compound", "parallel"].contains($0.kind) }.map { "s\($0.index)" })
    let nodes = Set(document.states.map { "s\($0.index)" }).subtracting(clusters)
    let edges = Set(document.transitions.map { "t\($0.index)" })
    guard DiagramTests.dotPath != nil else {
      // Without Graphviz, the DOT text itself.
      for id in nodes.union(clusters).union(edges) { #expect(dot.contains("id=\"\(id)\"")) }
      return
    }
    let (status, svg, stderr) = try DiagramTests.render(dot)
    #expect(status == 0, "dot failed: \(stderr)")
    #expect(Self.ids(in: svg, kind: "node") == nodes)
    #expect(Self.ids(in: svg, kind: "cluster") == clusters)
    // A fork's edges from its bar are `t<i>-<k>`.
    #expect(Set(Self.ids(in: svg, kind: "edge").filter { !$0.contains("-") }) == edges)
  }

  @Test("a flat machine: one node per state, one edge per transition and source state")
  func flatIdentifiers() throws {
    try checkIdentifiers(InspectedTicket.stateMachine)
    let document = InspectedTicket.stateMachine.inspectionDocument
    #expect(document.states.map(\.kind) == ["atomic", "atomic", "atomic", "final"])
    #expect(document.transitions[1].guarded && !document.transitions[0].guarded)
    #expect(document.transitions[4].kind == "internal")
    #expect(document.events == ["assign", "finish", "reopen", "note", "close"])
  }

  @Test("a statechart: clusters for the parallel and compound states, nodes for the rest")
  func statechartIdentifiers() throws {
    try checkIdentifiers(InspectionStatechartTests.definition())
  }

  @Test("media-player.json: a fork, a timeout, an invoke-free document that round-trips as JSON")
  func mediaPlayerDocument() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Definitions/media-player.json")
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(contentsOf: url)) { bind in
      bind.guard("hasTrack") { _, _ in true }
      bind.action("spinUp") { _, _ in }
      bind.action("advance") { _, _ in }
    }
    try checkIdentifiers(definition)
    let document = definition.inspectionDocument
    let split = try #require(document.transitions.first { $0.event == "split" })
    #expect(split.targets.map { document.states[$0].path } == ["deck/audio/muted", "deck/video/hd"])
    let timeout = try #require(document.transitions.first { $0.timeout != nil })
    #expect(timeout.timeout == 30 && document.states[timeout.source].path == "on/playing")
    #expect(document.states.first { $0.path == "on/resume" }?.kind == "history")
    let decoded = try JSONDecoder().decode(InspectionDocument.self, from: JSONEncoder().encode(document))
    #expect(decoded == document)
    let keys = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(document)) as? [String: Any])
    #expect(Set(keys.keys) == ["states", "transitions", "invokes", "events"])
  }

  @Test("a flat wildcard transition: source -1, one edge from `*`, taken as that edge")
  func flatWildcard() async throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      sm.addState("idle")
      sm.addState("busy")
      sm.addState("broken")
      sm.when("work", transitionFrom: "idle", to: "busy")
      sm.when("fail", transitionFromAnyStateTo: "broken")
    })
    try checkIdentifiers(definition)
    let document = definition.inspectionDocument
    #expect(document.transitions.map(\.source) == [0, -1])
    let machine = DynamicStateMachine(definition)
    var records = machine.inspectionRecords().makeAsyncIterator()
    #expect(machine.fire("work"))
    #expect(machine.fire("fail"))
    let got = await nextRecords(5, from: &records)
    #expect(got[2].transitions == [0] && got[4].transitions == [1])
    #expect(got[4].exited == ["busy"] && got[4].entered == ["broken"])
  }
}
