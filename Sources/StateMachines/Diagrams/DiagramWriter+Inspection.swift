// A definition as data for the inspector (Inspecting B.3): states, transitions,
// invokes and event names, indexed as the inspection records and the DOT ids (`s<i>`, `t<i>`).

import Foundation
internal import StateMachinesNames

extension DiagramWriter {
  /// A flat machine's edges in drawing order: each declared transition once per source state
  /// (-1: a wildcard's single edge from `*`).
  static func flatInspectionEdges(_ definition: StateMachineDefinition<Model>) -> [(declared: Int, source: Int32)] {
    var edges: [(declared: Int, source: Int32)] = []
    for (index, transition) in definition.compiled.declaredTransitions.enumerated() {
      for source in transition.from ?? [-1] { edges.append((index, source)) }
    }
    return edges
  }

  /// The document index of the edge a flat machine drew for declared transition `declared`
  /// taken from `from` (a step record's transition).
  static func flatEdgeIndex(_ definition: StateMachineDefinition<Model>, declared: Int, from: Int32) -> Int {
    var index = 0
    for (position, transition) in definition.compiled.declaredTransitions.enumerated() {
      guard position < declared else {
        return index + (transition.from?.firstIndex(of: from) ?? 0)
      }
      index += transition.from?.count ?? 1
    }
    return index
  }

  /// A statechart's document: the tree's nodes; its transitions, then its pseudostate edges (the
  /// joins' outgoing edges, then the junctions' paths), as `statechartDot` numbers them.
  static func statechartInspectionDocument(_ definition: StateMachineDefinition<Model>,
    _ chart: Statechart<Model>, invokes: [InspectionDocument.Invoke]
  ) -> InspectionDocument {
    let tree = chart.tree
    let initial = chart.computeEntrySet(
      [Statechart<Model>.SelectedTransition(source: -1, targets: chart.rootInitial, kind: .external, actions: [])], [:]
    ).states
    let states = (0..<Int32(tree.count)).map { state in
      let name = tree.names[Int(state)]
      return InspectionDocument.State(
        index: Int(state), path: tree.paths[Int(state)],
        name: name.isEmpty ? StatePath.splitDeclaration(tree.paths[Int(state)]).name : name,
        kind: DiagramWriter.kindName(tree.kinds[Int(state)]), parent: tree.parents[Int(state)] >= 0 ? Int(tree.parents[Int(state)]) : nil,
        initial: initial.contains(state))
    }
    var transitions: [InspectionDocument.Transition] = []
    for transition in chart.transitions {
      let trigger =
        transition.source >= 0
        ? definition.compiled.triggers[Int(transition.source)].first { $0.event == transition.event } : nil
      transitions.append(
        InspectionDocument.Transition(
          index: transitions.count, event: transition.event >= 0 ? definition.eventName(transition.event) : nil,
          source: Int(transition.source), targets: transition.targets.map { Int($0) }, kind: transition.kind.rawValue,
          guarded: transition.guardBody != nil, timeout: trigger?.timeout.map(inspectionSeconds),
          notification: trigger?.notification?.rawValue))
    }
    for edge in chart.pseudostateEdges {
      transitions.append(
        InspectionDocument.Transition(
          index: transitions.count, event: nil, source: Int(edge.source), targets: [Int(edge.target)], kind: "external",
          guarded: edge.guarded))
    }
    return InspectionDocument(states: states, transitions: transitions, invokes: invokes, events: definition.compiled.events)
  }

  /// The document's edges that selected transitions took: each declared transition, then the
  /// junction path it chose or the outgoing edge of the join it completed, numbered as
  /// ``inspectionDocument`` numbers them (the declared transitions, then
  /// `Statechart.pseudostateEdges`), so the inspector flashes the whole way taken.
  @usableFromInline
  static func inspectionEdges(_ definition: StateMachineDefinition<Model>, _ selected: [Statechart<Model>.SelectedTransition], _ chart: Statechart<Model>) -> [Int32] {
    // The number of the pseudostate edge from `source` (along junction path `path`; -1: a join's),
    // worked out only for a step through a junction or a join.
    func number(from source: Int32, path: Int32) -> Int32? {
      chart.pseudostateEdges.firstIndex { $0.source == source && $0.junctionPath == path }.map {
        Int32(chart.transitions.count + $0)
      }
    }
    var edges: [Int32] = []
    for transition in selected where transition.index >= 0 {
      edges.append(transition.index)
      if transition.junctionPath >= 0, let junction = chart.transitions[Int(transition.index)].targets.first,
        let edge = number(from: junction, path: transition.junctionPath)
      {
        edges.append(edge)
      }
      if transition.completedJoin >= 0, let edge = number(from: transition.completedJoin, path: -1) {
        edges.append(edge)
      }
    }
    return edges
  }

  /// The document's name of a node kind.
  static func kindName(_ kind: StateTree.Kind) -> String {
    switch kind {
    case .atomic: "atomic"
    case .compound: "compound"
    case .parallel: "parallel"
    case .final: "final"
    case .history(let history): history == .deep ? "deepHistory" : "history"
    case .junction: "junction"
    case .join: "join"
    }
  }
}

/// A duration in seconds, as the document gives timeouts.
func inspectionSeconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) + Double(attoseconds) / 1e18
}
