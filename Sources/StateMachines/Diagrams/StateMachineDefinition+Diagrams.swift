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
    case .flat: return flatDot(identifiers: identifiers)
    case .statechart(let chart): return statechartDot(chart, identifiers: identifiers)
    }
  }

  /// The DOT text of a flat machine.
  private func flatDot(identifiers: Bool) -> String {
    var lines = ["digraph \(dotID(String(describing: Model.self))) {", "  rankdir=LR;"]
    lines.append("  \"__initial\" [label=\"\", shape=point];")
    for (index, state) in compiled.states.enumerated() {
      let shape = compiled.isFinal[index] ? "doublecircle" : "ellipse"
      let activities = doActivities(of: Int32(index))
      let label = activities.isEmpty ? "" : ", label=\(dotLabel([state] + activities))"
      let id = identifiers ? ", id=\"s\(index)\"" : ""
      lines.append("  \(dotID(state)) [shape=\(shape)\(label)\(id)];")
    }
    if !compiled.states.isEmpty {
      lines.append("  \"__initial\" -> \(dotID(stateName(compiled.initialStateIndex)));")
    }
    if compiled.declaredTransitions.contains(where: { $0.from == nil }) {
      lines.append("  \"__any\" [label=\"*\", shape=plaintext];")
    }
    for (index, edge) in diagramEdges().enumerated() {
      let from = edge.from.map { dotID($0) } ?? "\"__any\""
      let id = identifiers ? ", id=\"t\(index)\"" : ""
      lines.append("  \(from) -> \(dotID(edge.to)) [label=\(dotID(edge.label))\(id)];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The machine as Mermaid `stateDiagram-v2` text: `[*]` marks the initial state and the final
  /// states; one edge per declared transition; wildcard transitions come from an `any` state.
  /// A state that invokes work has a `do / <id>` description; result edges read `done: <id>`
  /// and `error: <id>`.
  /// A hierarchical machine draws compound states as composite states, with `--` between the
  /// regions of a parallel state.
  public var mermaidDiagram: String {
    switch compiled.engine {
    case .flat: return flatMermaid()
    case .statechart(let chart): return statechartMermaid(chart)
    }
  }

  /// The Mermaid text of a flat machine.
  private func flatMermaid() -> String {
    var lines = ["stateDiagram-v2"]
    let ids = Dictionary(uniqueKeysWithValues: compiled.states.enumerated().map { ($0.element, "s\($0.offset)") })
    for (index, state) in compiled.states.enumerated() {
      lines.append("  state \"\(mermaidText(state))\" as s\(index)")
      for activity in doActivities(of: Int32(index)) { lines.append("  s\(index) : \(mermaidText(activity))") }
    }
    if !compiled.states.isEmpty {
      lines.append("  [*] --> \(ids[stateName(compiled.initialStateIndex)]!)")
    }
    if compiled.declaredTransitions.contains(where: { $0.from == nil }) {
      lines.append("  state \"*\" as any")
    }
    for edge in diagramEdges() {
      let from = edge.from.map { ids[$0]! } ?? "any"
      lines.append("  \(from) --> \(ids[edge.to]!) : \(mermaidText(edge.label))")
    }
    for (index, isFinal) in compiled.isFinal.enumerated() where isFinal {
      lines.append("  s\(index) --> [*]")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// One edge per declared transition and from-state (`from == nil`: the wildcard).
  private func diagramEdges() -> [(from: String?, to: String, label: String)] {
    var edges: [(from: String?, to: String, label: String)] = []
    for transition in compiled.declaredTransitions {
      var label = diagramEventName(transition.event)
      if transition.isGuarded { label += " [guard]" }
      if let timeout = transition.timeout { label += " (after \(timeout))" }
      if let notification = transition.notification { label += " (on \(notification.rawValue))" }
      if transition.isInternal, !transition.terminates { label += " (internal)" }
      if transition.terminates { label += " (terminates)" }
      let sources: [String?] = transition.from.map { $0.map { stateName($0) } } ?? [nil]
      for source in sources {
        let target = transition.to.map { stateName($0) } ?? source ?? ""
        edges.append((source, target, label))
      }
    }
    return edges
  }

  private func dotID(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  private func mermaidText(_ text: String) -> String {
    text.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: ":", with: "#58;")
  }
}
