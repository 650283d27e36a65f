@usableFromInline
enum DiagramWriter<Model: StateMachineObject> {
  /// The DOT text of a flat machine.
  static func flatDot(_ definition: StateMachineDefinition<Model>, identifiers: Bool) -> String {
    var lines = ["digraph \(DiagramWriter.dotID(definition, String(describing: Model.self))) {", "  rankdir=LR;"]
    lines.append("  \"__initial\" [label=\"\", shape=point];")
    for (index, state) in definition.compiled.states.enumerated() {
      let shape = definition.compiled.isFinal[index] ? "doublecircle" : "ellipse"
      let activities = DiagramWriter.doActivities(definition, of: Int32(index))
      let label = activities.isEmpty ? "" : ", label=\(DiagramWriter.dotLabel(definition, [state] + activities))"
      let id = identifiers ? ", id=\"s\(index)\"" : ""
      lines.append("  \(DiagramWriter.dotID(definition, state)) [shape=\(shape)\(label)\(id)];")
    }
    if !definition.compiled.states.isEmpty {
      lines.append("  \"__initial\" -> \(DiagramWriter.dotID(definition, definition.stateName(definition.compiled.initialStateIndex)));")
    }
    if definition.compiled.declaredTransitions.contains(where: { $0.from == nil }) {
      lines.append("  \"__any\" [label=\"*\", shape=plaintext];")
    }
    for (index, edge) in DiagramWriter.diagramEdges(definition).enumerated() {
      let from = edge.from.map { DiagramWriter.dotID(definition, $0) } ?? "\"__any\""
      let id = identifiers ? ", id=\"t\(index)\"" : ""
      lines.append("  \(from) -> \(DiagramWriter.dotID(definition, edge.to)) [label=\(DiagramWriter.dotID(definition, edge.label))\(id)];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The Mermaid text of a flat machine.
  static func flatMermaid(_ definition: StateMachineDefinition<Model>) -> String {
    var lines = ["stateDiagram-v2"]
    let ids = Dictionary(uniqueKeysWithValues: definition.compiled.states.enumerated().map { ($0.element, "s\($0.offset)") })
    for (index, state) in definition.compiled.states.enumerated() {
      lines.append("  state \"\(DiagramWriter.mermaidText(definition, state))\" as s\(index)")
      for activity in DiagramWriter.doActivities(definition, of: Int32(index)) { lines.append("  s\(index) : \(DiagramWriter.mermaidText(definition, activity))") }
    }
    if !definition.compiled.states.isEmpty {
      lines.append("  [*] --> \(ids[definition.stateName(definition.compiled.initialStateIndex)]!)")
    }
    if definition.compiled.declaredTransitions.contains(where: { $0.from == nil }) {
      lines.append("  state \"*\" as any")
    }
    for edge in DiagramWriter.diagramEdges(definition) {
      let from = edge.from.map { ids[$0]! } ?? "any"
      lines.append("  \(from) --> \(ids[edge.to]!) : \(DiagramWriter.mermaidText(definition, edge.label))")
    }
    for (index, isFinal) in definition.compiled.isFinal.enumerated() where isFinal {
      lines.append("  s\(index) --> [*]")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// One edge per declared transition and from-state (`from == nil`: the wildcard).
  static func diagramEdges(_ definition: StateMachineDefinition<Model>) -> [(from: String?, to: String, label: String)] {
    var edges: [(from: String?, to: String, label: String)] = []
    for transition in definition.compiled.declaredTransitions {
      var label = DiagramWriter.diagramEventName(definition, transition.event)
      if transition.isGuarded { label += " [guard]" }
      if let timeout = transition.timeout { label += " (after \(timeout))" }
      if let notification = transition.notification { label += " (on \(notification.rawValue))" }
      if transition.isInternal, !transition.terminates { label += " (internal)" }
      if transition.terminates { label += " (terminates)" }
      let sources: [String?] = transition.from.map { $0.map { definition.stateName($0) } } ?? [nil]
      for source in sources {
        let target = transition.to.map { definition.stateName($0) } ?? source ?? ""
        edges.append((source, target, label))
      }
    }
    return edges
  }

  static func dotID(_ definition: StateMachineDefinition<Model>, _ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  static func mermaidText(_ definition: StateMachineDefinition<Model>, _ text: String) -> String {
    text.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: ":", with: "#58;")
  }
}

extension DiagramWriter {
  /// The `do / <id>` lines of `state`, in declaration order.
  static func doActivities(_ definition: StateMachineDefinition<Model>, of state: Int32) -> [String] {
    definition.compiled.invocations.filter { $0.state == state }.map { "do / \($0.id)" }
  }

  /// How an edge names `event`: `done: <id>` or `error: <id>` for an invoke's result event,
  /// else the event's name.
  static func diagramEventName(_ definition: StateMachineDefinition<Model>, _ event: Int32) -> String {
    for invocation in definition.compiled.invocations {
      if event == invocation.doneEvent { return "done: \(invocation.id)" }
      if event == invocation.errorEvent { return "error: \(invocation.id)" }
    }
    return definition.eventName(event)
  }

  /// A DOT label of several lines: each escaped, joined by DOT's `\n` (a centred line break).
  static func dotLabel(_ definition: StateMachineDefinition<Model>, _ lines: [String]) -> String {
    let escaped = lines.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") }
    return "\"" + escaped.joined(separator: "\\n") + "\""
  }
}
