/// A tree of named states that references resolve in (Hierarchy N4, N5). Nodes are numbered
/// in document order; `-1` is the root.
///
/// The runtime's tree and the macro's tree both resolve through this one algorithm, so a
/// reference the macro accepts is one the runtime accepts.
public protocol NameResolvable {
  /// The nodes whose own name is `name`, in document order (canonical equivalence, as `String`'s
  /// `==`). Anonymous regions have no name.
  func nodes(named name: String) -> [Int32]
  /// The parent of `node`, `-1` for a top-level node.
  func parent(of node: Int32) -> Int32
  /// Whether `node` is a proper descendant of `ancestor` (every node descends from the root, -1).
  func isDescendant(_ node: Int32, of ancestor: Int32) -> Bool
  /// Whether `node` is a parallel state.
  func isParallel(_ node: Int32) -> Bool
  /// The children of `node` that are states: a parallel state's regions, in order.
  func stateChildren(of node: Int32) -> [Int32]
  /// The canonical path of `node`, for messages.
  func path(of node: Int32) -> String
}

extension NameResolvable {
  /// Resolves `text` written in the scope of node `scope` (-1: the root): a path from the root if
  /// it holds `/` or `@` (N4), else a bare name, searched in `scope` and then each enclosing scope;
  /// the first scope with exactly one match wins (N5).
  @inlinable
  public func resolve(_ text: String, from scope: Int32) throws(NameError) -> Int32 {
    if text.isEmpty { throw .empty }
    if StatePath.isPath(text) { return try resolve(path: text) }
    if text.utf8.contains(UInt8(ascii: ",")) { throw .reservedCharacter(text) }
    let matches = nodes(named: text)
    // The common case, a unique name, without building lists.
    if matches.count == 1 {
      var current = scope
      while true {
        if isDescendant(matches[0], of: current) { return matches[0] }
        if current == -1 { throw .undeclared(text) }
        current = parent(of: current)
      }
    }
    var current = scope
    while true {
      let inScope = matches.filter { isDescendant($0, of: current) }
      if inScope.count == 1 { return inScope[0] }
      if inScope.count > 1 { throw .ambiguous(text, candidates: inScope.map { path(of: $0) }) }
      if current == -1 { throw .undeclared(text) }
      current = parent(of: current)
    }
  }

  /// Resolves a path from the root (N4): every level named, `x@i` for region `i` of parallel `x`.
  public func resolve(path: String) throws(NameError) -> Int32 {
    var current: Int32 = -1
    var rest: Substring? = Substring(path)
    while let text = rest {
      let (component, after) = try StatePath.next(text, in: path)
      let parent = current
      // By name, then by parent: a hash lookup rather than a scan of the siblings.
      guard let child = nodes(named: String(component.name)).first(where: { self.parent(of: $0) == parent }) else {
        let owner = current == -1 ? "the root" : self.path(of: current)
        throw .invalidPath(path, reason: "'\(owner)' has no child '\(component.name)'")
      }
      current = child
      if let region = component.region {
        guard isParallel(child) else {
          throw .invalidPath(path, reason: "'\(self.path(of: child))' is not a parallel state")
        }
        let regions = stateChildren(of: child)
        guard region < regions.count else {
          throw .invalidPath(path, reason: "'\(self.path(of: child))' has \(regions.count) regions, no region \(region)")
        }
        current = regions[region]
      }
      rest = after
    }
    return current
  }
}
