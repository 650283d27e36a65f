/// The states and pseudostates of a hierarchical definition, in document order (HIERARCHY.md
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
  /// For each declared node (the builder's order), its index here; -1 if it was merged away
  /// (see `aliases`).
  let indexOfDeclared: [Int32]
  /// Each node's declared node.
  let declaredOf: [Int]
  private let byName: [String: [Int32]]

  @usableFromInline
  var count: Int { names.count }

  /// Puts the declared nodes of `store` in document order. Places path-form declarations
  /// (`addState("on/loading")`) under their parents, merges a state declared twice under one
  /// parent, and drops an `initialState` placeholder whose name is declared elsewhere.
  init<Model>(_ store: BuilderStore<Model>) throws(DefinitionError) {
    let declared = store.nodes
    if let conflict = store.conflictingDeclarations.first { throw .duplicateState(conflict) }
    // 1. Which declared nodes take part, and their parents (declared indices, -1 the root).
    var parent = [Int?](repeating: nil, count: declared.count)
    var alias = Array(declared.indices)
    let explicitNames = Set(declared.filter { !$0.isImplicit }.map(\.name))
    var dropped = Set<Int>()
    for (index, node) in declared.enumerated() {
      if node.isImplicit && explicitNames.contains(node.name) { dropped.insert(index) }
      if node.name.contains(where: { $0 == "@" || $0 == "," || $0 == "/" }) {
        throw .invalidName(node.name, context: "addState")
      }
      if node.name.isEmpty && !(node.scope >= 0 && declared[node.scope].kind == .parallel) {
        throw .emptyName(context: "addState")
      }
      if node.parentPath == nil && !dropped.contains(index) { parent[index] = node.scope }
    }
    // 2. Path-form declarations, resolved against the nodes placed so far, until none is left.
    var pending = declared.indices.filter { declared[$0].parentPath != nil }
    while !pending.isEmpty {
      let placed = DeclaredTree(declared: declared, parent: parent)
      var still: [Int] = []
      var lastError: DefinitionError?
      for index in pending {
        do throws(DefinitionError) {
          parent[index] = try placed.resolve(
            declared[index].parentPath!, from: declared[index].scope, context: "addState('\(declared[index].parentPath!)/\(declared[index].name)')")
        } catch {
          still.append(index)
          lastError = error
        }
      }
      if still.count == pending.count, let lastError { throw lastError }
      pending = still
    }
    // 3. One node per (parent, name): a redeclaration merges into the first declaration.
    var firstByKey: [PlacedName: Int] = [:]
    firstByKey.reserveCapacity(declared.count)
    for index in declared.indices {
      guard let p = parent[index], !declared[index].name.isEmpty else { continue }
      let key = PlacedName(parent: p, name: declared[index].name)
      if let first = firstByKey[key] {
        let kinds = [declared[first].kind, declared[index].kind]
        guard kinds.allSatisfy({ $0 == .state || $0 == .final }) else {
          throw .duplicateState(declared[index].name)
        }
        alias[index] = first
      } else {
        firstByKey[key] = index
      }
    }
    func canonical(_ index: Int) -> Int { index == -1 ? -1 : alias[index] }
    // 4. Document order: a pre-order walk, children in declaration order.
    // By declared index + 1 (0: the root).
    var childrenOf = [[Int]](repeating: [], count: declared.count + 1)
    for index in declared.indices where alias[index] == index {
      guard let p = parent[index] else { continue }
      childrenOf[canonical(p) + 1].append(index)
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
    names = order.map { declared[$0].name }
    parents = order.map { index in
      let p = canonical(parent[index]!)
      return p == -1 ? -1 : indexOfDeclared[p]
    }
    var children = [[Int32]](repeating: [], count: order.count)
    var rootChildren: [Int32] = []
    for (position, p) in parents.enumerated() {
      if p == -1 { rootChildren.append(Int32(position)) } else { children[Int(p)].append(Int32(position)) }
    }
    self.children = children
    self.rootChildren = rootChildren
    let kinds: [Kind] = order.enumerated().map { position, index in
      switch declared[index].kind {
      case .parallel: return .parallel
      case .final: return .final
      case .history(let kind): return .history(kind)
      case .junction: return .junction
      case .join: return .join
      case .state:
        return children[position].contains { !declared[order[Int($0)]].kind.isPseudostate } ? .compound : .atomic
      }
    }
    self.kinds = kinds
    stateChildrenOf = children.map { $0.filter { !kinds[Int($0)].isPseudostate } }
    rootStateChildren = rootChildren.filter { !kinds[Int($0)].isPseudostate }
    var lastDescendant = Array(0..<Int32(order.count))
    for position in (0..<order.count).reversed() where parents[position] >= 0 {
      let p = Int(parents[position])
      lastDescendant[p] = max(lastDescendant[p], lastDescendant[position])
    }
    self.lastDescendant = lastDescendant
    var paths: [String] = []
    for position in 0..<order.count {
      let p = Int(parents[position])
      let name = names[position]
      if p == -1 {
        paths.append(name)
      } else if name.isEmpty {
        let region = children[p].filter { !declared[order[Int($0)]].kind.isPseudostate }.firstIndex(of: Int32(position))!
        paths.append("\(paths[p])@\(region)")
      } else {
        paths.append("\(paths[p])/\(name)")
      }
    }
    self.paths = paths
    var byName: [String: [Int32]] = [:]
    for (position, name) in names.enumerated() where !name.isEmpty { byName[name, default: []].append(Int32(position)) }
    self.byName = byName
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
    if text.isEmpty { throw .emptyName(context: context()) }
    // Scans of characters: Foundation's `contains(_: StringProtocol)` searches for a substring,
    // far slower on a 10,000-state definition.
    if text.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "@") }) {
      return try resolvePath(text, context: context())
    }
    if text.utf8.contains(UInt8(ascii: ",")) { throw .invalidName(text, context: context()) }
    let matches = byName[text] ?? []
    // The common case, a unique name, without building lists.
    if matches.count == 1 {
      var current = scope
      while true {
        if isDescendant(matches[0], of: current) { return matches[0] }
        if current == -1 { throw .undeclaredState(text, context: context()) }
        current = parents[Int(current)]
      }
    }
    var current = scope
    while true {
      let inScope = matches.filter { isDescendant($0, of: current) }
      if inScope.count == 1 { return inScope[0] }
      if inScope.count > 1 { throw .ambiguousState(text, candidates: inScope.map { paths[Int($0)] }, context: context()) }
      if current == -1 { throw .undeclaredState(text, context: context()) }
      current = parents[Int(current)]
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

  /// A path from the root (N4): `comp ("/" comp)*`, `comp := name | name "@" index`.
  private func resolvePath(_ path: String, context: @autoclosure () -> String) throws(DefinitionError) -> Int32 {
    var current: Int32 = -1
    var rest = Substring(path)
    while true {
      // The next component, without splitting the path into an array.
      let slash = rest.firstIndex(of: "/")
      let component = slash.map { rest[..<$0] } ?? rest
      var name = component
      var region: Int?
      if let at = component.firstIndex(of: "@") {
        name = component[..<at]
        let digits = component[component.index(after: at)...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let value = Int(digits) else {
          throw .invalidPath(path, reason: "'\(component)' has no valid region index", context: context())
        }
        region = value
      }
      guard !name.isEmpty else { throw .invalidPath(path, reason: "empty component", context: context()) }
      // By name, then by parent: a hash lookup rather than a scan of the siblings.
      let parent = current
      guard let child = byName[String(name)]?.first(where: { parents[Int($0)] == parent }) else {
        throw .invalidPath(path, reason: "'\(this(current))' has no child '\(name)'", context: context())
      }
      current = child
      if let region {
        guard kinds[Int(child)] == .parallel else {
          throw .invalidPath(path, reason: "'\(paths[Int(child)])' is not a parallel state", context: context())
        }
        let regions = stateChildren(of: child)
        guard region < regions.count else {
          throw .invalidPath(
            path, reason: "'\(paths[Int(child)])' has \(regions.count) regions, no region \(region)", context: context())
        }
        current = regions[region]
      }
      guard let slash else { return current }
      rest = rest[rest.index(after: slash)...]
    }
  }

  private func this(_ node: Int32) -> String { node == -1 ? "the root" : paths[Int(node)] }
}

/// A declared node's place: one node per (parent, name).
private struct PlacedName: Hashable {
  let parent: Int
  let name: String
}

/// The declared nodes placed so far, for resolving path-form declarations before the tree is in
/// document order.
private struct DeclaredTree {
  @usableFromInline
  let names: [String]
  let parent: [Int?]

  init<Model>(declared: [DeclaredNode<Model>], parent: [Int?]) {
    names = declared.map(\.name)
    self.parent = parent
  }

  /// Resolves `text` from declared node `scope` over the placed nodes (N4, N5).
  func resolve(_ text: String, from scope: Int, context: String) throws(DefinitionError) -> Int {
    func isDescendant(_ node: Int, of ancestor: Int) -> Bool {
      var current = parent[node] ?? -1
      while current != -1 {
        if current == ancestor { return true }
        current = parent[current] ?? -1
      }
      return ancestor == -1
    }
    func placed(_ node: Int) -> Bool {
      var current: Int? = node
      while let c = current, c != -1 { current = parent[c] }
      return current == -1
    }
    if text.contains(where: { $0 == "/" || $0 == "@" }) {
      var current = -1
      for component in text.split(separator: "/") {
        guard let child = names.indices.first(where: { names[$0] == component && parent[$0] == current && placed($0) })
        else { throw .undeclaredState(text, context: context) }
        current = child
      }
      return current
    }
    let matches = names.indices.filter { names[$0] == text && placed($0) }
    var current = scope
    while true {
      let inScope = matches.filter { isDescendant($0, of: current) }
      if inScope.count == 1 { return inScope[0] }
      if inScope.count > 1 { throw .ambiguousState(text, candidates: inScope.map { names[$0] }, context: context) }
      if current == -1 { throw .undeclaredState(text, context: context) }
      current = parent[current] ?? -1
    }
  }
}
