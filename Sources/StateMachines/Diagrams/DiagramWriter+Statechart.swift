// Diagrams of a hierarchical definition: compound states as clusters (DOT) or composite states
// (Mermaid), regions of a parallel state separated by dashed borders (DOT) or `--` (Mermaid),
// and the pseudostates in their UML shapes: history `H`/`H*` circles, junctions as small filled
// circles (Mermaid `<<choice>>`), forks and joins as bars (Mermaid `<<fork>>`, `<<join>>`).

internal import StateMachinesNames

extension DiagramWriter {
  /// The DOT text of a statechart (see ``dotDiagram(identifiers:)``): edges numbered as
  /// ``inspectionDocument`` numbers them (transitions, then joins, then junction paths).
  static func statechartDot(_ definition: StateMachineDefinition<Model>, _ chart: Statechart<Model>, identifiers: Bool) -> String {
    let tree = chart.tree
    var lines = ["digraph \(DiagramWriter.quoted(definition, String(describing: Model.self))) {", "  rankdir=LR;", "  compound=true;"]
    func id(_ state: Int32) -> String { DiagramWriter.quoted(definition, tree.paths[Int(state)]) }
    func label(_ state: Int32) -> String {
      let name = tree.names[Int(state)]
      return name.isEmpty ? StatePath.splitDeclaration(tree.paths[Int(state)]).name : name
    }
    /// The node an edge attaches to: a compound state's anchor inside its cluster.
    func anchor(_ state: Int32) -> String {
      tree.kinds[Int(state)] == .compound || tree.kinds[Int(state)] == .parallel
        ? DiagramWriter.quoted(definition, "__anchor " + tree.paths[Int(state)]) : id(state)
    }
    func cluster(_ state: Int32) -> String { DiagramWriter.quoted(definition, "cluster " + tree.paths[Int(state)]) }
    /// `, id="s<state>"` with identifiers.
    func nodeID(_ state: Int32) -> String { identifiers ? ", id=\"s\(state)\"" : "" }
    /// `, id="t<edge>"` with identifiers.
    func edgeID(_ edge: String) -> String { identifiers ? ", id=\"t\(edge)\"" : "" }
    /// The attributes of an edge whose list may be empty: the clipping, then the id.
    func edgeAttributes(_ clipping: String, _ edge: String) -> String {
      guard identifiers else { return String(clipping.dropFirst(2)) }
      return String((clipping + edgeID(edge)).dropFirst(2))
    }
    func emit(_ state: Int32, indent: String) {
      let kind = tree.kinds[Int(state)]
      switch kind {
      case .compound, .parallel:
        let isRegion = tree.parents[Int(state)] >= 0 && tree.kinds[Int(tree.parents[Int(state)])] == .parallel
        lines.append("\(indent)subgraph \(cluster(state)) {")
        lines.append("\(indent)  label=\(DiagramWriter.dotLabel(definition, [label(state)] + DiagramWriter.doActivities(definition, of: state)));")
        lines.append("\(indent)  style=\(isRegion ? "dashed" : "rounded");")
        if identifiers { lines.append("\(indent)  id=\"s\(state)\";") }
        lines.append("\(indent)  \(anchor(state)) [shape=point, style=invis, width=0.01];")
        if kind == .compound {
          let initial = DiagramWriter.quoted(definition, "__initial " + tree.paths[Int(state)])
          lines.append("\(indent)  \(initial) [label=\"\", shape=point];")
          for target in chart.initial[Int(state)] { lines.append("\(indent)  \(initial) -> \(edgeEnd(target));") }
        }
        for child in tree.children[Int(state)] { emit(child, indent: indent + "  ") }
        lines.append("\(indent)}")
      case .atomic:
        lines.append(
          "\(indent)\(id(state)) [label=\(DiagramWriter.dotLabel(definition, [label(state)] + DiagramWriter.doActivities(definition, of: state))), shape=box, style=rounded\(nodeID(state))];")
      case .final:
        lines.append("\(indent)\(id(state)) [label=\(DiagramWriter.quoted(definition, label(state))), shape=doublecircle\(nodeID(state))];")
      case .history(let history):
        lines.append("\(indent)\(id(state)) [label=\(history == .deep ? "\"H*\"" : "\"H\""), shape=circle\(nodeID(state))];")
      case .junction:
        lines.append("\(indent)\(id(state)) [label=\"\", shape=circle, style=filled, fillcolor=black, width=0.15\(nodeID(state))];")
      case .join:
        lines.append(
          "\(indent)\(id(state)) [label=\"\", shape=box, style=filled, fillcolor=black, height=0.05, width=0.6\(nodeID(state))];")
      }
    }
    /// The end of an edge at `state`, with `lhead`/`ltail` clipping for clusters.
    func edgeEnd(_ state: Int32) -> String { anchor(state) }
    lines.append("  \"__initial\" [label=\"\", shape=point];")
    for state in tree.rootChildren { emit(state, indent: "  ") }
    for target in chart.rootInitial { lines.append("  \"__initial\" -> \(edgeEnd(target))\(DiagramWriter.clip(definition, head: target, chart));") }
    if !chart.rootTransitions.isEmpty { lines.append("  \"__any\" [label=\"*\", shape=plaintext];") }
    var forks = 0
    for (index, transition) in chart.transitions.enumerated() {
      let from = transition.source == -1 ? "\"__any\"" : anchor(transition.source)
      let tail = transition.source == -1 ? "" : DiagramWriter.clipAttribute(definition, "ltail", transition.source, chart)
      let text = DiagramWriter.edgeLabel(definition, transition)
      if transition.targets.isEmpty {
        lines.append("  \(from) -> \(from) [label=\(DiagramWriter.quoted(definition, text))\(tail)\(edgeID("\(index)"))];")
      } else if transition.targets.count == 1 {
        // A cluster clips an edge only when the other end lies outside it.
        let target = transition.targets[0]
        let source = transition.source
        let outTail = source >= 0 && tree.isDescendant(target, of: source) ? "" : tail
        let head = source >= 0 && tree.isDescendant(source, of: target) ? "" : DiagramWriter.clipAttribute(definition, "lhead", target, chart)
        lines.append("  \(from) -> \(anchor(target)) [label=\(DiagramWriter.quoted(definition, text))\(outTail)\(head)\(edgeID("\(index)"))];")
      } else {
        forks += 1
        let bar = DiagramWriter.quoted(definition, "__fork \(forks)")
        lines.append("  \(bar) [label=\"\", shape=box, style=filled, fillcolor=black, height=0.05, width=0.6];")
        lines.append("  \(from) -> \(bar) [label=\(DiagramWriter.quoted(definition, text))\(tail)\(edgeID("\(index)"))];")
        for (position, target) in transition.targets.enumerated() {
          let attributes = edgeAttributes(DiagramWriter.clipAttribute(definition, "lhead", target, chart), "\(index)-\(position)")
          lines.append("  \(bar) -> \(anchor(target))[\(attributes)];")
        }
      }
    }
    for (position, edge) in chart.pseudostateEdges.enumerated() {
      let number = "\(chart.transitions.count + position)"
      let clip = DiagramWriter.clipAttribute(definition, "lhead", edge.target, chart)
      if edge.junctionPath < 0 {
        lines.append("  \(id(edge.source)) -> \(anchor(edge.target))[\(edgeAttributes(clip, number))];")
      } else {
        let guardText = edge.guarded ? "[guard]" : "[else]"
        lines.append("  \(id(edge.source)) -> \(anchor(edge.target)) [label=\(DiagramWriter.quoted(definition, guardText))\(clip)\(edgeID(number))];")
      }
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The Mermaid `stateDiagram-v2` text of a statechart (see ``mermaidDiagram``).
  static func statechartMermaid(_ definition: StateMachineDefinition<Model>, _ chart: Statechart<Model>) -> String {
    let tree = chart.tree
    var lines = ["stateDiagram-v2"]
    func id(_ state: Int32) -> String { "s\(state)" }
    func emit(_ state: Int32, indent: String) {
      let name = tree.names[Int(state)]
      let label = name.isEmpty ? StatePath.splitDeclaration(tree.paths[Int(state)]).name : name
      switch tree.kinds[Int(state)] {
      case .compound, .parallel:
        lines.append("\(indent)state \"\(DiagramWriter.mermaidLabel(definition, label))\" as \(id(state))")
        for activity in DiagramWriter.doActivities(definition, of: state) { lines.append("\(indent)\(id(state)) : \(DiagramWriter.mermaidLabel(definition, activity))") }
        lines.append("\(indent)state \(id(state)) {")
        if tree.kinds[Int(state)] == .compound {
          for target in chart.initial[Int(state)] { lines.append("\(indent)  [*] --> \(id(target))") }
        }
        let children = tree.children[Int(state)]
        let regions = tree.stateChildren(of: state)
        for child in children {
          if tree.kinds[Int(state)] == .parallel, let position = regions.firstIndex(of: child), position > 0 {
            lines.append("\(indent)  --")
          }
          emit(child, indent: indent + "  ")
        }
        lines.append("\(indent)}")
      case .atomic:
        lines.append("\(indent)state \"\(DiagramWriter.mermaidLabel(definition, label))\" as \(id(state))")
        for activity in DiagramWriter.doActivities(definition, of: state) { lines.append("\(indent)\(id(state)) : \(DiagramWriter.mermaidLabel(definition, activity))") }
      case .final:
        lines.append("\(indent)state \"\(DiagramWriter.mermaidLabel(definition, label))\" as \(id(state))")
        lines.append("\(indent)\(id(state)) --> [*]")
      case .history(let history):
        lines.append("\(indent)state \"\(history == .deep ? "H*" : "H")\" as \(id(state))")
      case .junction:
        lines.append("\(indent)state \(id(state)) <<choice>>")
      case .join:
        lines.append("\(indent)state \(id(state)) <<join>>")
      }
    }
    for state in tree.rootChildren { emit(state, indent: "  ") }
    for target in chart.rootInitial { lines.append("  [*] --> \(id(target))") }
    if !chart.rootTransitions.isEmpty { lines.append("  state \"*\" as any") }
    var forks = 0
    for transition in chart.transitions {
      let from = transition.source == -1 ? "any" : id(transition.source)
      let text = DiagramWriter.mermaidLabel(definition, DiagramWriter.edgeLabel(definition, transition))
      if transition.targets.count > 1 {
        forks += 1
        lines.append("  state fork\(forks) <<fork>>")
        lines.append("  \(from) --> fork\(forks) : \(text)")
        for target in transition.targets { lines.append("  fork\(forks) --> \(id(target))") }
      } else {
        lines.append("  \(from) --> \(transition.targets.first.map(id) ?? from) : \(text)")
      }
    }
    for edge in chart.pseudostateEdges {
      let label = edge.junctionPath < 0 ? "" : " : \(edge.guarded ? "guard" : "else")"
      lines.append("  \(id(edge.source)) --> \(id(edge.target))\(label)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func edgeLabel(_ definition: StateMachineDefinition<Model>, _ transition: Statechart<Model>.ChartTransition) -> String {
    var label = transition.event >= 0 ? DiagramWriter.diagramEventName(definition, transition.event) : "(always)"
    if transition.guardBody != nil { label += " [guard]" }
    if transition.source >= 0, let trigger = definition.compiled.triggers[Int(transition.source)].first(where: { $0.event == transition.event }) {
      if let timeout = trigger.timeout { label += " (after \(timeout))" }
      if let notification = trigger.notification { label += " (on \(notification.rawValue))" }
    }
    switch transition.kind {
    case .local: label += " (local)"
    case .internal: if !transition.terminates { label += " (internal)" }
    case .external: break
    }
    if transition.terminates { label += " (terminates)" }
    return label
  }

  /// `, lhead="cluster …"` for an edge into a compound state's cluster (`ltail` out of one).
  static func clipAttribute(_ definition: StateMachineDefinition<Model>, _ attribute: String, _ state: Int32, _ chart: Statechart<Model>) -> String {
    let kind = chart.tree.kinds[Int(state)]
    guard kind == .compound || kind == .parallel else { return "" }
    return ", \(attribute)=\(DiagramWriter.quoted(definition, "cluster " + chart.tree.paths[Int(state)]))"
  }

  static func clip(_ definition: StateMachineDefinition<Model>, head state: Int32, _ chart: Statechart<Model>) -> String {
    let attribute = DiagramWriter.clipAttribute(definition, "lhead", state, chart)
    return attribute.isEmpty ? "" : " [\(attribute.dropFirst(2))]"
  }

  static func quoted(_ definition: StateMachineDefinition<Model>, _ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  static func mermaidLabel(_ definition: StateMachineDefinition<Model>, _ text: String) -> String {
    text.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: ":", with: "#58;")
  }
}

