import Foundation
import StateMachines
import Testing

/// Diagrams of a hierarchical machine: clusters and dashed regions (DOT), composite states and
/// `--` between regions (Mermaid), pseudostates in their UML shapes.
@Suite struct StatechartDiagramTests {
  static let definition: StateMachineDefinition<DynamicStateMachine> = {
    let definition = TBScenarioFixture.definition(log: TestRecorder())
    return definition
  }()

  static let withHistory = StateMachineDefinition<DynamicStateMachine> { sm in
    sm.addState("off")
    sm.addState("on") { on in
      on.addState("stopped"); on.addState("playing")
      on.addHistory("resume", .deep)
    }
    sm.when("power", transitionFrom: "off", to: "on/resume")
    sm.always(transitionFrom: "on/playing", to: "on/stopped", if: { _ in false })
  }

  @Test func dotDrawsCompoundStatesAsClustersAndRegionsDashed() {
    let dot = Self.definition.dotDiagram
    #expect(dot.contains("compound=true;"))
    #expect(dot.contains("subgraph \"cluster b/b3\" {"))
    #expect(dot.contains("subgraph \"cluster b/b3@0\" {"))
    #expect(dot.contains("style=dashed;"))
    #expect(dot.contains("\"b/b3@0/b311\" [label=\"b311\", shape=box, style=rounded];"))
    // Fork: a bar with an edge to each target; join: a bar with an edge to its target.
    #expect(dot.contains("\"__fork 1\" [label=\"\", shape=box, style=filled, fillcolor=black"))
    #expect(dot.contains("\"join\" [label=\"\", shape=box, style=filled, fillcolor=black"))
    // Junction: a small filled circle with a guarded edge per path.
    #expect(dot.contains("\"junction\" [label=\"\", shape=circle, style=filled, fillcolor=black"))
    #expect(dot.contains("\"junction\" -> \"__anchor c/c2\" [label=\"[guard]\", lhead=\"cluster c/c2\"];"))
    // An edge into a compound state is clipped at its cluster.
    #expect(dot.contains("\"__anchor a\" -> \"__anchor b\" [label=\"a_guard\", ltail=\"cluster a\", lhead=\"cluster b\"];"))
  }

  @Test func dotDrawsHistoryAndEventlessTransitions() {
    let dot = Self.withHistory.dotDiagram
    #expect(dot.contains("\"on/resume\" [label=\"H*\", shape=circle];"))
    #expect(dot.contains("\"off\" -> \"on/resume\" [label=\"power\"];"))
    #expect(dot.contains("[label=\"(always) [guard]\"]"))
  }

  @Test func mermaidUsesCompositeStatesAndRegionSeparators() {
    let mermaid = Self.definition.mermaidDiagram
    let lines = mermaid.split(separator: "\n").map(String.init)
    #expect(lines.first == "stateDiagram-v2")
    #expect(lines.contains("    state \"b3\" as s9"))
    #expect(lines.contains("    state s9 {"))
    #expect(lines.contains("      --"))
    #expect(lines.contains("  state s25 <<choice>>"))
    #expect(lines.contains("  state fork1 <<fork>>"))
    #expect(lines.contains { $0.contains("<<join>>") })
  }

  /// `.ci/run` installs Graphviz, so there this runs.
  @Test(.enabled(if: DiagramTests.dotPath != nil || ProcessInfo.processInfo.environment["STATEMACHINES_REQUIRE_DOT"] == "1"))
  func theRealDotBinaryRendersANestedMachine() throws {
    for definition in [Self.definition, Self.withHistory] {
      let (status, svg, stderr) = try DiagramTests.render(definition.dotDiagram)
      #expect(status == 0, "dot failed: \(stderr)")
      #expect(stderr.isEmpty, "dot warned: \(stderr)")
      #expect(svg.contains("<svg"))
    }
    let svg = try DiagramTests.render(Self.definition.dotDiagram).svg
    #expect(svg.contains("b311") && svg.contains("c222"))
  }
}
