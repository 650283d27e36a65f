// The structural checks of the statechart compiler (S17, S20): initial states and the regions of
// forks and joins. Each error names its culprits (``DefinitionCulprit``) for the loaders to locate.

extension Statechart {
  /// The initial targets of `state` (-1: the root): `declared`, checked to be descendants in
  /// distinct regions, or the first child state.
  static func initialTargets(
    _ declared: [Int32], of state: Int32, tree: StateTree, store: BuilderStore<Model>
  ) throws(DefinitionError) -> [Int32] {
    let name = state == -1 ? "the machine" : "'\(tree.paths[Int(state)])'"
    let node = state == -1 ? -1 : tree.declaredOf[Int(state)]
    let path = tree.path(state)
    func entry(_ index: Int?) -> DefinitionCulprit { .initial(of: node, path: state == -1 ? "" : path, entry: index) }
    if declared.isEmpty {
      guard let first = tree.stateChildren(of: state).first else {
        if state == -1 { throw .noStates }
        throw store.failure(.invalidStructure("\(name) has no child states"), .node(node, path: path))
      }
      return [first]
    }
    for (index, target) in declared.enumerated() where !tree.isDescendant(target, of: state) {
      throw store.failure(
        .invalidStructure("the initial state '\(tree.paths[Int(target)])' of \(name) is not inside it"), entry(index))
    }
    try checkFork(declared, tree: tree, context: "the initial states of \(name)") { store.failure($0, entry($1), entry($2)) }
    return declared
  }

  /// Several targets must lie in distinct regions of parallel states (S17a, S20). `blame` gives
  /// the error, with the positions of the two targets at fault, the culprits of the caller.
  static func checkFork(
    _ targets: [Int32], tree: StateTree, context: @autoclosure () -> String,
    blame: (DefinitionError, Int, Int) -> DefinitionError
  ) throws(DefinitionError) {
    guard targets.count > 1 else { return }
    for (i, a) in targets.enumerated() {
      for (j, b) in targets.enumerated().dropFirst(i + 1) {
        // The nearest common ancestor of a and b must be parallel, with a and b in different regions.
        var common = tree.parents[Int(a)]
        while common != -1 && !(tree.isDescendant(b, of: common)) { common = tree.parents[Int(common)] }
        if a == b || tree.isDescendant(a, of: b) || tree.isDescendant(b, of: a) || common == -1
          || tree.kinds[Int(common)] != .parallel
        {
          throw blame(
            .invalidStructure(
              "\(context()): '\(tree.paths[Int(a)])' and '\(tree.paths[Int(b)])' are not in distinct regions of one parallel state"),
            i, j)
        }
      }
    }
  }

  /// The sources of a join must lie in distinct regions of one parallel state (S17b, S20);
  /// `transitions` are the declared transitions that bring them, the culprits.
  static func checkJoin(
    _ join: Int32, sources: [Int32], transitions: [Int], tree: StateTree, store: BuilderStore<Model>
  ) throws(DefinitionError) {
    let path = tree.paths[Int(join)]
    guard sources.count >= 2, !sources.contains(-1) else {
      throw store.failure(
        .invalidStructure("join '\(path)' needs transitions from at least two states in distinct regions"),
        [.node(tree.declaredOf[Int(join)], path: path)] + transitions.map { .transition($0, target: nil) })
    }
    try checkFork(sources, tree: tree, context: "the sources of join '\(path)'") {
      store.failure($0, .transition(transitions[$1], target: nil), .transition(transitions[$2], target: nil))
    }
  }
}
