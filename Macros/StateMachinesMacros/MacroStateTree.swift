/// The declared states of a definition in document order, as the runtime will see them
/// (HIERARCHY.md N2–N6): path-form declarations placed under their parents, a state declared
/// twice under one parent merged, canonical paths, and N4/N5 resolution of references.
struct MacroStateTree {
  /// What resolving a reference found.
  enum Resolution {
    case state(Int)
    case ambiguous([Int])
    case undeclared
    case invalidPath(String)
  }

  /// Declared node indices in document order.
  private(set) var order: [Int] = []
  /// Per declared node: its parent (declared index, -1 the root), or nil if it was not placed.
  private(set) var parent: [Int?]
  /// Per declared node: the node it was merged into (itself if not merged).
  private(set) var canonical: [Int]
  private(set) var paths: [Int: String] = [:]
  private let nodes: [DeclaredStateNode]
  private var children: [Int: [Int]] = [:]

  init(_ nodes: [DeclaredStateNode]) {
    self.nodes = nodes
    parent = Array(repeating: nil, count: nodes.count)
    canonical = Array(nodes.indices)
    let explicitNames = Set(nodes.filter { !$0.isImplicit }.compactMap(\.name.value))
    // Plain declarations sit in their scope; path-form ones under the state their path names.
    var pending: [Int] = []
    for (index, node) in nodes.enumerated() {
      guard let value = node.name.value else { continue }
      if node.isImplicit && explicitNames.contains(value) { continue }
      if node.isImplicit && nodes[..<index].contains(where: { $0.isImplicit && $0.name.value == value }) { continue }
      if value.contains("/") { pending.append(index) } else { parent[index] = node.scope }
    }
    rebuild()
    var progress = true
    while progress && !pending.isEmpty {
      progress = false
      for index in pending {
        let value = nodes[index].name.value!
        let parentPath = String(value[..<value.lastIndex(of: "/")!])
        if case .state(let found) = resolve(parentPath, from: nodes[index].scope) {
          parent[index] = found
          pending.removeAll { $0 == index }
          progress = true
          rebuild()
          break
        }
      }
    }
  }

  /// The last path component of a declaration.
  func name(_ index: Int) -> String {
    let value = nodes[index].name.value ?? ""
    return value.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? value
  }

  private func placed(_ index: Int) -> Bool {
    var current: Int? = index
    var steps = 0
    while let node = current, node != -1, steps <= nodes.count {
      current = parent[node]
      steps += 1
    }
    return current == -1
  }

  /// Recomputes merges, children, document order and paths from `parent`.
  private mutating func rebuild() {
    canonical = Array(nodes.indices)
    var firstByKey: [String: Int] = [:]
    for index in nodes.indices where placed(index) && !nodes[index].isAnonymousRegion {
      let key = "\(canonicalParent(index))/\(name(index))"
      if let first = firstByKey[key] { canonical[index] = first } else { firstByKey[key] = index }
    }
    children = [:]
    for index in nodes.indices where placed(index) && canonical[index] == index {
      children[canonicalParent(index), default: []].append(index)
    }
    order = []
    paths = [:]
    func visit(_ index: Int, parentPath: String?, regionIndex: Int?) {
      order.append(index)
      let path: String
      if nodes[index].isAnonymousRegion {
        path = "\(parentPath ?? "")@\(regionIndex ?? 0)"
      } else {
        path = parentPath.map { "\($0)/\(name(index))" } ?? name(index)
      }
      paths[index] = path
      var region = 0
      for child in children[index] ?? [] {
        visit(child, parentPath: path, regionIndex: region)
        if !nodes[child].isPseudostate { region += 1 }
      }
    }
    for child in children[-1] ?? [] { visit(child, parentPath: nil, regionIndex: nil) }
    for index in nodes.indices where canonical[index] != index { paths[index] = paths[canonical[index]] }
  }

  private func canonicalParent(_ index: Int) -> Int {
    guard let p = parent[index], p != -1 else { return -1 }
    return canonical[p]
  }

  func isDescendant(_ node: Int, of ancestor: Int) -> Bool {
    var current = canonicalParent(node)
    while current != -1 {
      if current == ancestor { return true }
      current = canonicalParent(current)
    }
    return ancestor == -1
  }

  func kind(_ index: Int) -> DeclaredStateNode.Kind { nodes[canonical[index]].kind }
  func isPseudostate(_ index: Int) -> Bool { nodes[canonical[index]].isPseudostate }
  func isAnonymousRegion(_ index: Int) -> Bool { nodes[index].isAnonymousRegion }
  func parentOf(_ index: Int) -> Int { canonicalParent(index) }

  /// Whether two states lie in distinct regions of one parallel state (S17a).
  func inDistinctRegions(_ a: Int, _ b: Int) -> Bool {
    if a == b || isDescendant(a, of: b) || isDescendant(b, of: a) { return false }
    var common = canonicalParent(a)
    while common != -1 && !isDescendant(b, of: common) { common = canonicalParent(common) }
    return common != -1 && kind(common) == .parallel
  }

  /// Resolves `text` written in the scope of declared node `scope` (N4, N5).
  func resolve(_ text: String, from scope: Int) -> Resolution {
    if text.contains("/") || text.contains("@") { return resolvePath(text) }
    let matches = order.filter { name($0) == text && !nodes[$0].isAnonymousRegion }
    var current = scope == -1 ? -1 : canonical[scope]
    while true {
      let inScope = matches.filter { isDescendant($0, of: current) }
      if inScope.count == 1 { return .state(inScope[0]) }
      if inScope.count > 1 { return .ambiguous(inScope) }
      if current == -1 { return .undeclared }
      current = canonicalParent(current)
    }
  }

  private func resolvePath(_ path: String) -> Resolution {
    var current = -1
    for component in path.split(separator: "/", omittingEmptySubsequences: false) {
      var componentName = Substring(component)
      var region: Int?
      if let at = component.firstIndex(of: "@") {
        componentName = component[..<at]
        let digits = component[component.index(after: at)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else {
          return .invalidPath("'\(component)' has no valid region index")
        }
        region = value
      }
      guard !componentName.isEmpty else { return .invalidPath("empty component") }
      guard let child = (children[current] ?? []).first(where: { name($0) == componentName && !nodes[$0].isAnonymousRegion })
      else {
        return current == -1 && (children[-1] ?? []).isEmpty
          ? .undeclared : .invalidPath("'\(current == -1 ? "the root" : paths[current]!)' has no child '\(componentName)'")
      }
      current = child
      if let region {
        guard kind(child) == .parallel else { return .invalidPath("'\(paths[child]!)' is not a parallel state") }
        let regions = (children[child] ?? []).filter { !nodes[$0].isPseudostate }
        guard region < regions.count else {
          return .invalidPath("'\(paths[child]!)' has \(regions.count) regions, no region \(region)")
        }
        current = regions[region]
      }
    }
    return .state(current)
  }
}
