import StateMachinesNames

/// The declared states of a definition in document order, as the runtime will see them
/// (Hierarchy N2–N6). The names model's ``NameTree`` places, merges and resolves, exactly as it
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
  let errors: [DeclarationError]
  private let tree: NameTree
  private let nodes: [DeclaredStateNode]
  /// Per declared node, the declaration it repeats (same scope, parent path and name), as the
  /// runtime's builder finds it when declaring: itself if none.
  private let repeated: [Int]

  init(_ nodes: [DeclaredStateNode]) {
    self.nodes = nodes
    // As the runtime's builder: a root `initialState` declares its state only if no state of that
    // own name is declared anywhere, and never for a path.
    var explicitNames = Set<String>()
    for node in nodes where !node.isImplicit {
      if let value = node.name.value { explicitNames.insert(StatePath.splitDeclaration(value).name) }
    }
    var implicitNames = Set<String>()
    // A declaration repeated in the same place is the same node; a state may turn final, any
    // other change of kind is an error (N6).
    var repeated = Array(nodes.indices)
    var kinds = nodes.map(\.kind)
    var firstByPlace: [DeclarationPlace: Int] = [:]
    var conflicts: [DeclarationError] = []
    var declared: [DeclaredName] = []
    for (index, node) in nodes.enumerated() {
      let scope = node.scope == -1 ? -1 : repeated[node.scope]
      guard let value = node.name.value else {
        declared.append(DeclaredName(name: "", scope: scope, kind: node.kind, isExcluded: true))
        continue
      }
      let excluded =
        node.isImplicit && (StatePath.isPath(value) || explicitNames.contains(value) || !implicitNames.insert(value).inserted)
      let (parentPath, name) = node.isAnonymousRegion ? (nil, "") : StatePath.splitDeclaration(value)
      if !node.isImplicit && !node.isAnonymousRegion {
        let place = DeclarationPlace(scope: scope, parentPath: parentPath, name: name)
        if let first = firstByPlace[place] {
          repeated[index] = first
          if let kind = kinds[first].redeclared(as: node.kind) {
            kinds[first] = kind
          } else {
            conflicts.append(DeclarationError(declared: index, error: .duplicate(value), context: "addState"))
          }
        } else {
          firstByPlace[place] = index
        }
      }
      declared.append(
        DeclaredName(
          name: name, scope: scope, parentPath: parentPath, kind: node.kind, isExcluded: excluded || repeated[index] != index))
    }
    for index in declared.indices { declared[index].kind = kinds[index] }
    self.repeated = repeated
    tree = NameTree(declared)
    errors = (conflicts + tree.errors).sorted { $0.declared < $1.declared }
    order = tree.declaredOf
    var paths: [Int: String] = [:]
    for (index, first) in repeated.enumerated() where tree.indexOfDeclared[first] >= 0 {
      paths[index] = tree.paths[Int(tree.indexOfDeclared[first])]
    }
    self.paths = paths
  }

  /// The own name of a declared node in the tree: its path's last component.
  func name(_ index: Int) -> String { tree.names[position(index)] }

  private func position(_ index: Int) -> Int { Int(tree.indexOfDeclared[repeated[index]]) }

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
    let start: Int32 = scope == -1 ? -1 : tree.indexOfDeclared[repeated[scope]]
    do throws(NameError) {
      return .state(declared(try tree.resolve(text, from: start)))
    } catch {
      return .failed(error)
    }
  }
}

/// Where a declaration is: its scope, its path form's parent path and its name (the runtime's
/// builder keeps one node per place).
private struct DeclarationPlace: Hashable {
  let scope: Int
  let parentPath: String?
  let name: String
}
