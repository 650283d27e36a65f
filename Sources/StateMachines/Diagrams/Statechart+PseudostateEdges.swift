// The edges a statechart's diagrams draw after its transitions (Inspecting §The document and the
// diagram): one numbering for the DOT ids, the inspection document and the steps' records, so that
// they cannot disagree.

extension Statechart {
  /// An edge drawn from a join or a junction rather than declared as a transition.
  struct PseudostateEdge {
    /// The join or junction.
    let source: Int32
    let target: Int32
    /// The position of the junction path among its junction's paths; -1 for a join's edge.
    let junctionPath: Int32
    /// Whether a guard decides it (a junction path other than the last `otherwise`).
    let guarded: Bool
  }

  /// Each join's outgoing edge, then each junction's paths, in state order: edge `i` is
  /// numbered `transitions.count + i` in ``StateMachineDefinition/dotDiagram(identifiers:)``
  /// and ``StateMachineDefinition/inspectionDocument``.
  var pseudostateEdges: [PseudostateEdge] {
    var edges: [PseudostateEdge] = []
    for join in 0..<Int32(tree.count) where tree.kinds[Int(join)] == .join {
      edges.append(PseudostateEdge(source: join, target: joinTargets[Int(join)], junctionPath: -1, guarded: false))
    }
    for junction in 0..<Int32(tree.count) where tree.kinds[Int(junction)] == .junction {
      for (position, path) in junctionPaths[Int(junction)].enumerated() {
        edges.append(
          PseudostateEdge(
            source: junction, target: path.target, junctionPath: Int32(position), guarded: path.guardBody != nil))
      }
    }
    return edges
  }
}
