internal import StateMachinesNames

/// Loads a definition in the library's JSON format, `statemachines/1` (Hierarchy §7: XState's
/// authoring shape without functions), into a builder's store. Key order is document order (N2);
/// targets and initial states resolve by N4/N5 from the state whose object names them; guards and
/// actions are looked up in the bindings by name. Every error names its line, column and JSON
/// pointer.
struct JSONDefinitionLoader<Model: StateMachineObject> {
  static var format: String { "statemachines/1" }

  let document: JSONDocument
  let bindings: Bindings<Model>
  let store: BuilderStore<Model>
  var usedGuards: Set<String> = []
  var usedActions: Set<String> = []
  var usedInvocations: Set<String> = []
  var stateCount = 0
  var transitionCount = 0
  /// Every state reference the document makes, checked once the tree is known, so that an
  /// unknown or ambiguous name is reported where it is written.
  var references: [Reference] = []
  /// Where each declaration is, to locate an error compiling finds.
  var sites = JSONSourceMap()

  /// A state reference as written, and, for a transition's target, where it is in the store, so
  /// that compiling finds it resolved (`.node`) rather than resolving it again.
  struct Reference {
    let reference: StateReference
    let value: JSONValue
    /// `nil`: the pointer of `value`, found only for an error.
    var pointer: String? = nil
    var target: (spec: Int, index: Int)? = nil
  }

  init(_ document: JSONDocument, bindings: Bindings<Model>, store: BuilderStore<Model>) {
    self.document = document
    self.bindings = bindings
    self.store = store
  }

  // MARK: The document

  mutating func load() throws(DefinitionError) {
    let root = document.root
    let members = try document.object(root, "", allowed: ["format", "description", "initial", "states"])
    var states: JSONMember?
    for member in members {
      let pointer = JSONPointer.string([member.key])
      switch member.key {
      case "format":
        let format = try document.string(member.value, pointer)
        guard format == Self.format else {
          throw document.error("unknown format '\(format)'; expected '\(Self.format)'", at: member.value, pointer)
        }
      case "description":
        _ = try document.string(member.value, pointer)
      case "initial":
        let names = try document.strings(member.value, pointer)
        store.rootInitial = names
        sites.initial(of: -1, at: member.value)
        for (index, name) in names.enumerated() {
          references.append(
            Reference(
              reference: .name(name, scope: -1), value: member.value,
              pointer: names.count > 1 ? pointer + "/\(index)" : pointer))
        }
      default:
        states = member
      }
    }
    guard let states else { throw document.error("a definition needs 'states'", at: root, "") }
    let children = try document.object(states.value, "/states")
    guard !children.isEmpty else { throw document.error("'states' is empty", at: states.value, "/states") }
    for child in children { try loadState(child, in: -1, path: "", pointer: "/states") }
    try checkReferences()
    if !store.isHierarchical { store.nameTopLevelReferences() }
    // A document declares each event once per state and `loadList` drops repeated plain targets.
    store.knownUniqueCount = store.declaredTransitions.count
  }

  /// Resolves every reference by N4/N5 against the declared tree.
  mutating func checkReferences() throws(DefinitionError) {
    let tree = try document.tree(of: store, sites: sites)
    for written in references {
      let state = try document.resolve(
        written.reference, in: tree, at: written.value, written.pointer ?? document.pointer(to: written.value))
      if let (spec, index) = written.target {
        store.declaredTransitions[spec].to[index] = .node(tree.declaredOf[Int(state)])
      }
    }
    store.checkedTree = tree
  }

  // MARK: States

  mutating func loadState(
    _ member: JSONMember, in parent: Int, path parentPath: String, pointer parentPointer: String
  ) throws(DefinitionError) {
    // Made only for an error message (or a rare reference).
    func pointer() -> String { parentPointer + JSONPointer.string([member.key]) }
    let name = try document.name(member.key, at: member.value, pointer(), what: "state")
    guard NameGrammar.isPortable(name) else {
      throw document.error(NameError.notPortable(name).located, at: member.value, pointer())
    }
    stateCount += 1
    guard stateCount <= document.limits.maxStates else {
      throw document.error("more states than the limit of \(document.limits.maxStates)", at: member.value, pointer())
    }
    guard case .object(let members) = member.value.kind else {
      throw document.error("expected a state object, found \(member.value.kindName)", at: member.value, pointer())
    }
    let fields = document.fields(members)
    let type: String
    if let value = fields["type"] {
      type = try document.string(value, pointer() + "/type")
      guard JSONFormatKeys.byType[type] != nil else {
        throw document.error(
          "unknown state type '\(type)'; expected one of \(JSONFormatKeys.byType.keys.sorted().joined(separator: ", "))",
          at: value, pointer() + "/type")
      }
    } else {
      type = fields["states"] == nil ? "atomic" : "compound"
    }
    let allowed = JSONFormatKeys.byType[type]!
    for field in members where !allowed.contains(field.key) {
      throw document.error("key '\(field.key)' is not allowed in a state of type '\(type)'", at: field.value, pointer() + JSONPointer.string([field.key]))
    }
    let path = parentPath.isEmpty ? name : parentPath + "/" + name
    let kind: DeclaredKind
    switch type {
    case "parallel": kind = .parallel
    case "final": kind = .final
    case "history":
      var historyKind = HistoryKind.shallow
      if let value = fields["history"] {
        switch try document.string(value, pointer() + "/history") {
        case "shallow": historyKind = .shallow
        case "deep": historyKind = .deep
        case let other: throw document.error("unknown history '\(other)'; expected shallow or deep", at: value, pointer() + "/history")
        }
      }
      kind = .history(historyKind)
    case "junction": kind = .junction
    case "join": kind = .join
    default: kind = .state
    }
    let node = store.declare(name, kind: kind, in: parent)
    sites.declared(node, at: member.value)
    store.nodes[node].description = try fields["description"].map { value throws(DefinitionError) in
      try document.string(value, pointer() + "/description")
    }
    // The state itself: a name could be ambiguous (N5). A flat machine's references become names
    // once the whole document is loaded.
    let this = StateReference.node(node)
    switch type {
    case "history":
      if let value = fields["target"] {
        let targets = try document.strings(value, pointer() + "/target")
        store.nodes[node].targets = targets
        sites.historyDefaults(of: node, at: value)
        for target in targets {
          references.append(Reference(reference: .name(target, scope: parent), value: value, pointer: pointer() + "/target"))
        }
      }
    case "join":
      guard let value = fields["target"] else { throw document.error("a join needs a 'target'", at: member.value, pointer()) }
      let target = try document.string(value, pointer() + "/target")
      store.nodes[node].targets = [target]
      references.append(Reference(reference: .name(target, scope: parent), value: value, pointer: pointer() + "/target"))
    case "junction":
      try loadJunction(fields["paths"], node: node, parent: parent, at: member.value, pointer())
    default:
      break
    }
    if type == "compound" || type == "parallel" {
      guard let value = fields["states"] else {
        throw document.error("a \(type) state needs 'states'", at: member.value, pointer())
      }
      let children = try document.object(value, pointer() + "/states")
      guard !children.isEmpty else { throw document.error("'states' is empty", at: value, pointer() + "/states") }
      for child in children { try loadState(child, in: node, path: path, pointer: pointer() + "/states") }
    }
    if let value = fields["initial"] {
      let names = try document.strings(value, pointer() + "/initial")
      store.nodes[node].initial = names
      sites.initial(of: node, at: value)
      for target in names {
        references.append(Reference(reference: .name(target, scope: node), value: value, pointer: pointer() + "/initial"))
      }
    }
    for (key, isEntry) in [("entry", true), ("exit", false)] {
      guard let value = fields[key] else { continue }
      let keyPointer = pointer() + JSONPointer.string([key])
      for (entry, body) in try readActions(value, keyPointer) {
        // One action each, so that export writes them back in order.
        var name: String?
        var declared: [DeclaredAction]?
        switch entry {
        case .bound(let bound): name = bound
        case .declared(let action): declared = [action]
        }
        if isEntry {
          store.entryActions.append(.init(state: this, body: .callback(.withTransition(body)), name: name, declared: declared))
        } else {
          store.exitActions.append(.init(state: this, body: .withTransition(body), name: name, declared: declared))
        }
      }
    }
    try loadTransitions(fields, of: node, this: this, path: path, pointer())
    if let value = fields["invoke"] { try loadInvokes(value, node: node, this: this, pointer()) }
  }

  mutating func loadJunction(
    _ paths: JSONValue?, node: Int, parent: Int, at value: JSONValue, _ pointer: String
  ) throws(DefinitionError) {
    guard let paths else { throw document.error("a junction needs 'paths'", at: value, pointer) }
    let elements = try document.array(paths, pointer + "/paths")
    guard !elements.isEmpty else { throw document.error("a junction needs at least one path", at: paths, pointer + "/paths") }
    var result: [JunctionPath<Model>] = []
    var targets: [JSONValue] = []
    for (index, element) in elements.enumerated() {
      let pathPointer = pointer + "/paths/\(index)"
      let transition = try readTransition(element, pathPointer)
      guard transition.targets.count == 1 else {
        throw document.error("a junction path needs exactly one target", at: element, pathPointer)
      }
      if transition.guardName == nil && index != elements.count - 1 {
        throw document.error("only the last path of a junction may have no guard", at: element, pathPointer)
      }
      references.append(
        Reference(reference: .name(transition.targets[0], scope: parent), value: element, pointer: pathPointer + "/target"))
      var path = JunctionPath<Model>(
        target: .name(transition.targets[0], scope: parent), guardBody: transition.guardBody, action: transition.action)
      path.guardName = transition.guardName
      path.actionEntries = transition.actionEntries
      result.append(path)
      targets.append(transition.targetValues[0])
    }
    store.nodes[node].junctionPaths = result
    sites.junction(node, targets: targets)
  }

  /// The event of a timeout (`after`): named after its delay and state, so that it can also be
  /// fired by name.
  static func timeoutEvent(seconds: Double, path: String) -> String {
    let delay = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    return "after.\(delay)s.\(path)"
  }
}

/// The keys of `statemachines/1`, made once (a generic type cannot store them).
enum JSONFormatKeys {
  /// The state types (`type`) and the keys each allows.
  static let byType: [String: Set<String>] = {
    let common: Set<String> = ["type", "description"]
    let behaviour: Set<String> = ["on", "always", "after", "entry", "exit", "invoke"]
    return [
      "atomic": common.union(behaviour),
      "compound": common.union(behaviour).union(["states", "initial", "onDone"]),
      "parallel": common.union(behaviour).union(["states", "onDone"]),
      "final": common.union(["entry", "exit"]),
      "history": common.union(["history", "target"]),
      "junction": common.union(["paths"]),
      "join": common.union(["target"]),
    ]
  }()
  /// The keys of a transition object, and of a timeout (`after`), which adds `seconds`.
  static let transition: Set<String> = ["target", "kind", "guard", "actions", "description"]
  /// The keys of a declared action (JSONActions).
  static let declaredAction: Set<String> = ["raise", "send", "delay", "id", "cancel"]
  static let timeout: Set<String> = transition.union(["seconds"])
  /// The keys of an invoke (Invoke A.5).
  static let invoke: Set<String> = ["id", "src", "onDone", "onError", "onRestore", "autoforward"]
}

extension JSONValue {
  var isArray: Bool {
    if case .array = kind { return true }
    return false
  }

  var isString: Bool {
    if case .string = kind { return true }
    return false
  }
}
