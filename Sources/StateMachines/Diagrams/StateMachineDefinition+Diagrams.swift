// Diagrams of a definition: Graphviz DOT and Mermaid `stateDiagram-v2` text.

import Foundation

extension StateMachineDefinition {
  /// The machine as a Graphviz DOT digraph: an initial-state marker, one edge per declared
  /// transition labelled with its event (`[guard]` where it has one, the timeout or notification
  /// that fires it), final states as double circles, wildcard transitions from a `*` node. A
  /// state that invokes work has a `do / <id>` line (UML's do-activity); the edges its result
  /// takes are labelled `done: <id>` and `error: <id>`.
  ///
  /// A hierarchical machine draws compound states as clusters, regions with dashed borders,
  /// and history, junction, fork and join pseudostates in their UML shapes.
  ///
  /// Render it with `dot -Tsvg machine.dot > machine.svg`.
  public var dotDiagram: String { dotDiagram(identifiers: false) }

  /// ``dotDiagram``, and with `identifiers` an `id="s<index>"` on every state's node or cluster
  /// and an `id="t<index>"` on every transition's edge, with the indexes of
  /// ``inspectionDocument`` and of the inspection records, so that an inspector can highlight
  /// the SVG that `dot -Tsvg` renders (Graphviz keeps the ids on its `<g>` elements). A
  /// transition drawn as several edges (a fork's bar to each target) has `t<index>` on the
  /// edge to the bar and `t<index>-<k>` on the others.
  public func dotDiagram(identifiers: Bool) -> String {
    switch compiled.engine {
    case .flat: return DiagramWriter.flatDot(self, identifiers: identifiers)
    case .statechart(let chart): return DiagramWriter.statechartDot(self, chart, identifiers: identifiers)
    }
  }

  /// The machine as Mermaid `stateDiagram-v2` text: `[*]` marks the initial state and the final
  /// states; one edge per declared transition; wildcard transitions come from an `any` state.
  /// A state that invokes work has a `do / <id>` description; result edges read `done: <id>`
  /// and `error: <id>`.
  /// A hierarchical machine draws compound states as composite states, with `--` between the
  /// regions of a parallel state.
  public var mermaidDiagram: String {
    switch compiled.engine {
    case .flat: return DiagramWriter.flatMermaid(self)
    case .statechart(let chart): return DiagramWriter.statechartMermaid(self, chart)
    }
  }
}

extension StateMachineDefinition {
  /// The definition's states, transitions (one per edge of ``dotDiagram(identifiers:)``, with
  /// the same indexes), invokes and event names, for an inspector to draw and offer events.
  public var inspectionDocument: InspectionDocument {
    let invokes = compiled.invocations.map { InspectionDocument.Invoke(id: $0.id, state: Int($0.state)) }
    switch compiled.engine {
    case .flat:
      let states = compiled.states.enumerated().map { index, name in
        InspectionDocument.State(
          index: index, path: name, name: name, kind: compiled.isFinal[index] ? "final" : "atomic", parent: nil,
          initial: Int32(index) == compiled.initialStateIndex)
      }
      let transitions = DiagramWriter.flatInspectionEdges(self).enumerated().map { index, edge in
        let declared = compiled.declaredTransitions[edge.declared]
        return InspectionDocument.Transition(
          index: index, event: eventName(declared.event), source: Int(edge.source),
          targets: declared.to.map { [Int($0)] } ?? [], kind: declared.isInternal ? "internal" : "external",
          guarded: declared.isGuarded, timeout: declared.timeout.map(inspectionSeconds),
          notification: declared.notification?.rawValue)
      }
      return InspectionDocument(states: states, transitions: transitions, invokes: invokes, events: compiled.events)
    case .statechart(let chart):
      return DiagramWriter.statechartInspectionDocument(self, chart, invokes: invokes)
    }
  }
}
