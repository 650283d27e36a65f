import StateMachinesNames

/// The declared states of a definition in document order, as the runtime will see them
/// (HIERARCHY.md N2–N6). The names model's ``NameTree`` places, merges and resolves, exactly as it
/// does for the runtime; this type only speaks in the macro's declared-node indices.
struct MacroStateTree {
  /// What resolving a reference found.
  enum Resolution {
    case state(Int)
    case failed(NameError)
  }

  /// Declared node indices in document order (one per node: a merged redeclaration is left out).
  let order: [Int]
  /// Per declared node that is in the tree: its canonical path (a merged redeclaration has its
  /// first declaration's).
  let paths: [Int: String]
  /// The declarations that cannot be placed (the same errors, in the same words, as the runtime's).
  var errors: [DeclarationError] { tree.errors }
  private let tree: NameTree
  private let nodes: [DeclaredStateNode]

  init(_ nodes: [DeclaredStateNode]) {
    self.nodes = nodes
    // As the runtime's builder: a root `initialState` declares its state only if no state of that
    // own name is declared anywhere, and never for a path.
    var explicitNames = Set<String>()
    for node in nodes where !node.isImplicit {
      if let value = node.name.value { explicitNames.insert(StatePath.splitDeclaration(value).name) }
    }
    var implicitNames = Set<String>()
    let declared = nodes.map { node -> DeclaredName in
      guard let value = node.name.value else { return DeclaredName(name: "", scope: node.scope, kind: node.kind, isExcluded: true) }
      let excluded =
        node.isImplicit && (StatePath.isPath(value) || explicitNames.contains(value) || !implicitNames.insert(value).inserted)
      let (parentPath, name) = node.isAnonymousRegion ? (nil, "") : StatePath.splitDeclaration(value)
      return DeclaredName(name: name, scope: node.scope, parentPath: parentPath, kind: node.kind, isExcluded: excluded)
    }
    tree = NameTree(declared)
    order = tree.declaredOf
    var paths: [Int: String] = [:]
    for (index, position) in tree.indexOfDeclared.enumerated() where position >= 0 { paths[index] = tree.paths[Int(position)] }
    self.paths = paths
  }

  /// The own name of a declared node in the tree: its path's last component.
  func name(_ index: Int) -> String { tree.names[position(index)] }

  private func position(_ index: Int) -> Int { Int(tree.indexOfDeclared[index]) }

  private func declared(_ position: Int32) -> Int { position == -1 ? -1 : tree.declaredOf[Int(position)] }

  func isPseudostate(_ index: Int) -> Bool { tree.kinds[position(index)].isPseudostate }
  func isAnonymousRegion(_ index: Int) -> Bool { nodes[index].isAnonymousRegion }

  func isDescendant(_ node: Int, of ancestor: Int) -> Bool {
    tree.isDescendant(Int32(position(node)), of: ancestor == -1 ? -1 : Int32(position(ancestor)))
  }

  /// Whether two states lie in distinct regions of one parallel state (S17a).
  func inDistinctRegions(_ a: Int, _ b: Int) -> Bool {
    if a == b || isDescendant(a, of: b) || isDescendant(b, of: a) { return false }
    var common = tree.parents[position(a)]
    while common != -1 && !tree.isDescendant(Int32(position(b)), of: common) { common = tree.parents[Int(common)] }
    return common != -1 && tree.kinds[Int(common)] == .parallel
  }

  /// Resolves `text` written in the scope of declared node `scope` (N4, N5).
  func resolve(_ text: String, from scope: Int) -> Resolution {
    let start: Int32 = scope == -1 ? -1 : tree.indexOfDeclared[scope]
    do throws(NameError) {
      return .state(declared(try tree.resolve(text, from: start)))
    } catch {
      return .failed(error)
    }
  }
}
