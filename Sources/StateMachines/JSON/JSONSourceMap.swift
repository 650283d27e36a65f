/// Where a JSON loader read each declaration (the byte offsets of its values), so that an error
/// the compiler finds later is reported where its culprit is written (``DefinitionCulprit``).
/// Both formats' loaders fill it as they declare; a node or transition added in code has no entry.
struct JSONSourceMap {
  /// Each declared node's value (-1: none, such as a node added in code).
  private var nodes: [Int] = []
  /// Each call that declared a node, in order.
  private var declarations: [Int] = []
  /// Each declared transition's value.
  private var transitions: [Int] = []
  /// The targets of each transition with several (a fork), by declared transition.
  private var targets: [Int: [Int]] = [:]
  /// The `initial` value of each declared node (-1: the root), and its entries.
  private var initials: [Int: (value: Int, entries: [Int])] = [:]
  /// The target of each path of each junction, by declared node.
  private var junctionPaths: [Int: [Int]] = [:]
  /// The default targets of each history, by declared node.
  private var historyDefaults: [Int: [Int]] = [:]

  /// Node `node` was declared at `value` (the first declaration is the one reported).
  mutating func declared(_ node: Int, at value: JSONValue) {
    declarations.append(value.offset)
    while nodes.count <= node { nodes.append(-1) }
    if nodes[node] == -1 { nodes[node] = value.offset }
  }

  /// Records a node that is not declared by name (an anonymous region).
  mutating func region(_ node: Int, at value: JSONValue) {
    while nodes.count <= node { nodes.append(-1) }
    nodes[node] = value.offset
  }

  /// The next declared transition is written at `value`; `targets`, where its targets are.
  mutating func transition(at value: JSONValue, targets: [JSONValue] = []) {
    if targets.count > 1 { self.targets[transitions.count] = targets.map(\.offset) }
    transitions.append(value.offset)
  }

  /// The initial states of `node` (-1: the root) are written at `value`.
  mutating func initial(of node: Int, at value: JSONValue) {
    initials[node] = (value.offset, Self.entries(of: value))
  }

  /// The paths of junction `node` lead to targets written at `targets`.
  mutating func junction(_ node: Int, targets: [JSONValue]) {
    junctionPaths[node] = targets.map(\.offset)
  }

  /// The defaults of history `node` are written at `value`.
  mutating func historyDefaults(of node: Int, at value: JSONValue) {
    historyDefaults[node] = Self.entries(of: value)
  }

  /// Where `culprit` is written, or `nil` if the document did not declare it.
  func offset(of culprit: DefinitionCulprit) -> Int? {
    func valid(_ offset: Int?) -> Int? { offset.flatMap { $0 >= 0 ? $0 : nil } }
    switch culprit {
    case .node(let node, _):
      return valid(nodes.indices.contains(node) ? nodes[node] : nil)
    case .declaration(let index):
      return declarations.indices.contains(index) ? declarations[index] : nil
    case .initial(let node, _, let entry):
      guard let initial = initials[node] else { return nil }
      guard let entry, initial.entries.indices.contains(entry) else { return initial.value }
      return initial.entries[entry]
    case .transition(let index, let target):
      guard transitions.indices.contains(index) else { return nil }
      if let target, let offsets = targets[index], offsets.indices.contains(target) { return offsets[target] }
      return transitions[index]
    case .junctionPath(let node, _, let index):
      guard let offsets = junctionPaths[node], offsets.indices.contains(index) else { return nil }
      return offsets[index]
    case .historyDefault(let node, _, let entry):
      guard let offsets = historyDefaults[node], offsets.indices.contains(entry) else { return nil }
      return offsets[entry]
    }
  }

  /// The elements of an array (a list of names), or the value itself.
  private static func entries(of value: JSONValue) -> [Int] {
    if case .array(let elements) = value.kind { return elements.map(\.offset) }
    return [value.offset]
  }
}
