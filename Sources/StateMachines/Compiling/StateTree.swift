internal import StateMachinesNames

/// The states and pseudostates of a hierarchical definition, in document order (Hierarchy
/// N2): a parent before its children, children in the order declared. Index `i` is a state's
/// index everywhere in the runtime; `-1` is the root, which is implicit and has no callbacks.
@usableFromInline
struct StateTree {
  @usableFromInline
  enum Kind: Equatable {
    case atomic, compound, parallel, final
    case history(HistoryKind)
    case junction, join

    var isPseudostate: Bool {
      switch self {
      case .history, .junction, .join: return true
      default: return false
      }
    }

    /// The names model's kind; a history's depth is not in it, so it reads as shallow.
    init(_ kind: NodeKind) {
      switch kind {
      case .atomic: self = .atomic
      case .compound: self = .compound
      case .parallel: self = .parallel
      case .final: self = .final
      case .history: self = .history(.shallow)
      case .junction: self = .junction
      case .join: self = .join
      }
    }
  }

  /// The names; empty for an anonymous region.
  @usableFromInline
  let names: [String]
  /// Canonical paths (N4): names for named states and regions, `p@i` for anonymous regions.
  @usableFromInline
  let paths: [String]
  @usableFromInline
  let kinds: [Kind]
  /// The parent of each node; -1 for a top-level node.
  @usableFromInline
  let parents: [Int32]
  /// The children of each node, in document order; pseudostates included.
  @usableFromInline
  let children: [[Int32]]
  /// The top-level nodes.
  @usableFromInline
  let rootChildren: [Int32]
  /// The last node of each node's subtree: its descendants are `i + 1 ... lastDescendant[i]`.
  @usableFromInline
  let lastDescendant: [Int32]
  /// The children that are states, per node and of the root (precomputed: the step asks often).
  @usableFromInline let stateChildrenOf: [[Int32]]
  @usableFromInline let rootStateChildren: [Int32]
  /// For each declared node (the builder's order), its index here; a declaration merged into an
  /// earlier one (N6) has that one's index.
  let indexOfDeclared: [Int32]
  /// Each node's declared node.
  let declaredOf: [Int]
  /// The names model's tree, which places declarations and resolves references (N4, N5).
  private let nameTree: NameTree

  @usableFromInline
  var count: Int { names.count }

  /// Puts the declared nodes of `store` in document order (``NameTree``): places path-form
  /// declarations (`addState("on/loading")`) under their parents, merges a state declared twice
  /// under one parent, and drops an `initialState` placeholder whose name is declared elsewhere.
  init<Model>(_ store: BuilderStore<Model>) throws(DefinitionError) {
    let declared = store.nodes
    if let conflict = store.conflictingDeclarations.first {
      throw store.failure(
        .duplicateState(conflict.path), .node(conflict.node, path: conflict.path), .declaration(conflict.declaration))
    }
    var explicitNames = Set<String>()
    explicitNames.reserveCapacity(declared.count)
    for node in declared where !node.isImplicit { explicitNames.insert(node.name) }
    let tree = NameTree(
      declared.map { node in
        DeclaredName(
          name: node.name, scope: node.scope, parentPath: node.parentPath, kind: node.kind.names,
          isExcluded: node.isImplicit && explicitNames.contains(node.name))
      })
    if let error = tree.errors.first {
      throw store.failure(
        DefinitionError(error.error, context: error.context), .node(error.declared, path: declared[error.declared].name))
    }
    nameTree = tree
    declaredOf = tree.declaredOf
    indexOfDeclared = tree.indexOfDeclared
    names = tree.names
    paths = tree.paths
    parents = tree.parents
    children = tree.children
    rootChildren = tree.rootChildren
    stateChildrenOf = tree.stateChildrenOf
    rootStateChildren = tree.rootStateChildren
    lastDescendant = tree.lastDescendant
    kinds = zip(tree.kinds, tree.declaredOf).map { kind, index in
      if case .history(let depth) = declared[index].kind { return .history(depth) }
      return Kind(kind)
    }
  }

  // MARK: Queries

  /// Whether `node` is a proper descendant of `ancestor` (-1: the root, an ancestor of all).
  @inlinable
  func isDescendant(_ node: Int32, of ancestor: Int32) -> Bool {
    if ancestor == -1 { return node >= 0 }
    return node > ancestor && node <= lastDescendant[Int(ancestor)]
  }

  /// The children of `node` that are states (regions, for a parallel state).
  @inlinable
  func stateChildren(of node: Int32) -> [Int32] {
    node == -1 ? rootStateChildren : stateChildrenOf[Int(node)]
  }

  /// The proper ancestors of `node`, innermost first, without the root.
  @inlinable
  func ancestors(of node: Int32) -> [Int32] {
    var result: [Int32] = []
    var current = node == -1 ? -1 : parents[Int(node)]
    while current != -1 {
      result.append(current)
      current = parents[Int(current)]
    }
    return result
  }

  /// The canonical path of `node`, or "(root)".
  @inlinable
  func path(_ node: Int32) -> String { node == -1 ? "(root)" : paths[Int(node)] }

  /// Resolves `text` written in the scope of `scope` (N4, N5). `context` goes into the error.
  func resolve(_ text: String, from scope: Int32, context: @autoclosure () -> String) throws(DefinitionError) -> Int32 {
    do throws(NameError) {
      return try nameTree.resolve(text, from: scope)
    } catch {
      throw DefinitionError(error, context: context())
    }
  }

  /// Resolves a reference as the builder recorded it: a name or path in its scope, or the scope
  /// itself (a scoped `onEntry {}`; the root has none).
  func resolve(_ reference: StateReference, context: @autoclosure () -> String) throws(DefinitionError) -> Int32 {
    switch reference {
    case .node(let declared):
      guard declared >= 0 else { throw .invalidStructure("\(context()) outside a state: the root has no callbacks") }
      return indexOfDeclared[declared]
    case .name(let text, let scope):
      return try resolve(text, from: scope == -1 ? -1 : indexOfDeclared[scope], context: context())
    }
  }
}
