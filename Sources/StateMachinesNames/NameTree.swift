/// The declared nodes in document order (Hierarchy N2): a parent before its children, children
/// in declaration order; path-form declarations placed under their parents; a state declared
/// twice under one parent merged into its first declaration (N6); canonical paths (N4).
///
/// Built once per definition, by the runtime when it compiles and by the macro when it checks.
public struct NameTree: NameResolvable, Sendable {
  /// Each node's declared node.
  public let declaredOf: [Int]
  /// For each declared node, its node; -1 if it is excluded or could not be placed. A merged
  /// declaration maps to the node of its first declaration.
  public let indexOfDeclared: [Int32]
  /// For each declared node, the declared node it was merged into (itself if none).
  public let aliasOf: [Int]
  public let names: [String]
  /// Canonical paths: names for named states and regions, `p@i` for anonymous regions.
  public let paths: [String]
  public let kinds: [NodeKind]
  /// The parent of each node; -1 for a top-level node.
  public let parents: [Int32]
  /// The children of each node, pseudostates included, in document order.
  public let children: [[Int32]]
  public let rootChildren: [Int32]
  /// The children that are states, per node and of the root.
  public let stateChildrenOf: [[Int32]]
  public let rootStateChildren: [Int32]
  /// The last node of each node's subtree: its descendants are `i + 1 ... lastDescendant[i]`.
  public let lastDescendant: [Int32]
  /// The declarations that could not be placed or merged, in declaration order (empty when all
  /// are fine).
  public private(set) var errors: [DeclarationError]
  private let byName: [String: [Int32]]

  /// Checks the names of `declared`, places path-form declarations under their parents (each
  /// resolved against the nodes placed so far, until none is left) and builds the tree. A
  /// declaration that fails is reported in ``errors`` and left out.
  public init(_ declared: [DeclaredName]) {
    var parent = [Int?](repeating: nil, count: declared.count)
    var errors: [DeclarationError] = []
    var pending: [Int] = []
    for (index, node) in declared.enumerated() where !node.isExcluded {
      let isAnonymousRegion = node.name.isEmpty && node.scope >= 0 && declared[node.scope].kind == .parallel
      if !isAnonymousRegion {
        do throws(NameError) {
          try NameGrammar.checkStateName(node.name)
        } catch {
          errors.append(DeclarationError(declared: index, error: error, context: "addState"))
          continue
        }
      }
      if node.parentPath == nil { parent[index] = node.scope } else { pending.append(index) }
    }
    // Each round resolves against the nodes placed so far (most definitions have no round).
    var tree = pending.isEmpty ? nil : NameTree(declared: declared, parent: parent, errors: [])
    while let placed = tree, !pending.isEmpty {
      var still: [Int] = []
      var failures: [DeclarationError] = []
      for index in pending {
        let parentPath = declared[index].parentPath!
        let scope = declared[index].scope
        do throws(NameError) {
          let found = try placed.resolve(parentPath, from: scope == -1 ? -1 : placed.indexOfDeclared[scope])
          parent[index] = placed.declaredOf[Int(found)]
        } catch {
          still.append(index)
          failures.append(
            DeclarationError(declared: index, error: error, context: "addState('\(parentPath)/\(declared[index].name)')"))
        }
      }
      if still.count == pending.count {
        errors += failures
        break
      }
      pending = still
      if !pending.isEmpty { tree = NameTree(declared: declared, parent: parent, errors: []) }
    }
    self = NameTree(declared: declared, parent: parent, errors: errors)
    // A redeclaration under one parent may only repeat a state or turn it final (N6).
    for (index, first) in aliasOf.enumerated() where first != index {
      let kinds = (declared[first].kind, declared[index].kind)
      guard (kinds.0 == .state || kinds.0 == .final) && (kinds.1 == .state || kinds.1 == .final) else {
        self.errors.append(DeclarationError(declared: index, error: .duplicate(declared[index].name), context: "addState"))
        continue
      }
    }
    self.errors.sort { $0.declared < $1.declared }
  }

  /// Lays out the declared nodes whose parents are known (declared indices, -1 the root).
  private init(declared: [DeclaredName], parent: [Int?], errors: [DeclarationError]) {
    self.errors = errors
    // A node takes part when its chain of parents reaches the root; its depth is the length of
    // that chain (-1: not placed). Parents merge before their children (by depth), so that `a/b`
    // declared by path and `b` declared in a second `a { }` have one parent.
    let unknown = -2
    var depth = [Int](repeating: unknown, count: declared.count)
    var chain: [Int] = []
    var byDepth: [[Int]] = []
    for index in declared.indices {
      // Up to the root, a node not placed, or a node whose depth is known; then down again.
      chain.removeAll(keepingCapacity: true)
      var current = index
      var above: Int?  // The depth above the chain (-1: the root); nil if the chain is not placed.
      while true {
        if depth[current] != unknown {
          above = depth[current] >= 0 ? depth[current] : nil
          break
        }
        chain.append(current)
        guard let p = parent[current], chain.count <= declared.count else { break }
        if p == -1 {
          above = -1
          break
        }
        current = p
      }
      for node in chain.reversed() {
        if let level = above {
          depth[node] = level + 1
          above = level + 1
        } else {
          depth[node] = -1
        }
      }
      guard depth[index] >= 0 else { continue }
      while byDepth.count <= depth[index] { byDepth.append([]) }
      byDepth[depth[index]].append(index)
    }
    func isPlaced(_ index: Int) -> Bool { depth[index] >= 0 }
    var alias = Array(declared.indices)
    var firstByKey: [PlacedName: Int] = [:]
    firstByKey.reserveCapacity(declared.count)
    for level in byDepth {
      for index in level where !declared[index].name.isEmpty {
        let p = parent[index]!
        let key = PlacedName(parent: p == -1 ? -1 : alias[p], name: declared[index].name)
        if let first = firstByKey[key] { alias[index] = first } else { firstByKey[key] = index }
      }
    }
    aliasOf = alias
    func canonical(_ index: Int) -> Int { index == -1 ? -1 : alias[index] }
    // Document order: a pre-order walk, children in declaration order. By declared index + 1.
    var childrenOf = [[Int]](repeating: [], count: declared.count + 1)
    for index in declared.indices where alias[index] == index && isPlaced(index) {
      childrenOf[canonical(parent[index]!) + 1].append(index)
    }
    // Children of merged duplicates join their first declaration.
    for index in declared.indices where alias[index] != index {
      childrenOf[alias[index] + 1] += childrenOf[index + 1]
    }
    for key in childrenOf.indices where childrenOf[key].count > 1 { childrenOf[key].sort() }
    var order: [Int] = []
    order.reserveCapacity(declared.count)
    var stack: [Int] = childrenOf[0].reversed()
    while let next = stack.popLast() {
      order.append(next)
      stack += childrenOf[next + 1].reversed()
    }
    var indexOfDeclared = [Int32](repeating: -1, count: declared.count)
    for (position, index) in order.enumerated() { indexOfDeclared[index] = Int32(position) }
    for index in declared.indices where alias[index] != index {
      indexOfDeclared[index] = indexOfDeclared[alias[index]]
    }
    declaredOf = order
    self.indexOfDeclared = indexOfDeclared
    let names = order.map { declared[$0].name }
    self.names = names
    let parents = order.map { index -> Int32 in
      let p = canonical(parent[index]!)
      return p == -1 ? -1 : indexOfDeclared[p]
    }
    self.parents = parents
    var children = [[Int32]](repeating: [], count: order.count)
    var rootChildren: [Int32] = []
    for (position, p) in parents.enumerated() {
      if p == -1 { rootChildren.append(Int32(position)) } else { children[Int(p)].append(Int32(position)) }
    }
    self.children = children
    self.rootChildren = rootChildren
    let kinds: [NodeKind] = order.enumerated().map { position, index in
      switch declared[index].kind {
      case .parallel: return .parallel
      case .final: return .final
      case .history: return .history
      case .junction: return .junction
      case .join: return .join
      case .state:
        return children[position].contains { !declared[order[Int($0)]].kind.isPseudostate } ? .compound : .atomic
      }
    }
    self.kinds = kinds
    let stateChildrenOf = children.map { $0.filter { !kinds[Int($0)].isPseudostate } }
    self.stateChildrenOf = stateChildrenOf
    rootStateChildren = rootChildren.filter { !kinds[Int($0)].isPseudostate }
    var lastDescendant = Array(0..<Int32(order.count))
    for position in (0..<order.count).reversed() where parents[position] >= 0 {
      let p = Int(parents[position])
      lastDescendant[p] = max(lastDescendant[p], lastDescendant[position])
    }
    self.lastDescendant = lastDescendant
    var paths: [String] = []
    paths.reserveCapacity(order.count)
    for position in 0..<order.count {
      let p = Int(parents[position])
      let name = names[position]
      if p == -1 {
        paths.append(name)
      } else if name.isEmpty {
        let region = stateChildrenOf[p].firstIndex(of: Int32(position))!
        paths.append("\(paths[p])@\(region)")
      } else {
        paths.append("\(paths[p])/\(name)")
      }
    }
    self.paths = paths
    var byName: [String: [Int32]] = [:]
    byName.reserveCapacity(order.count)
    for (position, name) in names.enumerated() where !name.isEmpty { byName[name, default: []].append(Int32(position)) }
    self.byName = byName
  }

  public var count: Int { names.count }

  // MARK: NameResolvable

  public func nodes(named name: String) -> [Int32] { byName[name] ?? [] }

  public func parent(of node: Int32) -> Int32 { parents[Int(node)] }

  public func isDescendant(_ node: Int32, of ancestor: Int32) -> Bool {
    if ancestor == -1 { return node >= 0 }
    return node > ancestor && node <= lastDescendant[Int(ancestor)]
  }

  public func isParallel(_ node: Int32) -> Bool { kinds[Int(node)] == .parallel }

  public func stateChildren(of node: Int32) -> [Int32] { node == -1 ? rootStateChildren : stateChildrenOf[Int(node)] }

  public func path(of node: Int32) -> String { node == -1 ? "(root)" : paths[Int(node)] }
}

/// A declared node's place: one node per (parent, name).
private struct PlacedName: Hashable {
  let parent: Int
  let name: String
}
