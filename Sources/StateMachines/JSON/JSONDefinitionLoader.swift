internal import StateMachinesNames

/// Loads a definition in the library's JSON format, `statemachines/1` (HIERARCHY.md §7: XState's
/// authoring shape without functions), into a builder's store. Key order is document order (N2);
/// targets and initial states resolve by N4/N5 from the state whose object names them; guards and
/// actions are looked up in the bindings by name. Every error names its line, column and JSON
/// pointer.
struct JSONDefinitionLoader<Model> {
  static var format: String { "statemachines/1" }

  let document: JSONDocument
  let bindings: Bindings<Model>
  let store: BuilderStore<Model>
  private(set) var usedGuards: Set<String> = []
  private(set) var usedActions: Set<String> = []
  private var stateCount = 0
  private var transitionCount = 0
  /// Every state reference the document makes, checked once the tree is known, so that an
  /// unknown or ambiguous name is reported where it is written.
  private var references: [Reference] = []

  /// A state reference as written, and, for a transition's target, where it is in the store, so
  /// that compiling finds it resolved (`.node`) rather than resolving it again.
  private struct Reference {
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
  private mutating func checkReferences() throws(DefinitionError) {
    let tree = try document.tree(of: store)
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

  private mutating func loadState(
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
      for target in names {
        references.append(Reference(reference: .name(target, scope: node), value: value, pointer: pointer() + "/initial"))
      }
    }
    for (key, isEntry) in [("entry", true), ("exit", false)] {
      guard let value = fields[key] else { continue }
      let keyPointer = pointer() + JSONPointer.string([key])
      for (index, action) in try document.strings(value, keyPointer).enumerated() {
        let body = try boundAction(action, at: value, keyPointer + (value.isArray ? "/\(index)" : ""))
        if isEntry {
          store.entryActions.append(.init(state: this, body: .callback(.withTransition(body)), name: action))
        } else {
          store.exitActions.append(.init(state: this, body: .withTransition(body), name: action))
        }
      }
    }
    try loadTransitions(fields, of: node, this: this, path: path, pointer())
  }

  private mutating func loadJunction(
    _ paths: JSONValue?, node: Int, parent: Int, at value: JSONValue, _ pointer: String
  ) throws(DefinitionError) {
    guard let paths else { throw document.error("a junction needs 'paths'", at: value, pointer) }
    let elements = try document.array(paths, pointer + "/paths")
    guard !elements.isEmpty else { throw document.error("a junction needs at least one path", at: paths, pointer + "/paths") }
    var result: [JunctionPath<Model>] = []
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
      path.actionNames = transition.actionNames
      result.append(path)
    }
    store.nodes[node].junctionPaths = result
  }

  // MARK: Transitions

  /// A transition as written: a target string, or an object.
  private struct WrittenTransition {
    var targets: [String] = []
    /// Where each target is written.
    var targetValues: [JSONValue] = []
    var kind: TransitionKind?
    var guardName: String?
    var guardBody: MachineGuard<Model>?
    var actionNames: [String] = []
    var action: MachineCallback<Model>?
    var description: String?
  }

  private mutating func readTransition(
    _ value: JSONValue, _ pointer: @autoclosure () -> String, allowed: Set<String> = JSONFormatKeys.transition
  ) throws(DefinitionError) -> WrittenTransition {
    var written = WrittenTransition()
    if case .string(let target) = value.kind {
      written.targets = [target]
      written.targetValues = [value]
      return written
    }
    for member in try document.object(value, pointer(), allowed: allowed) {
      // Made only for an error message.
      func memberPointer() -> String { pointer() + JSONPointer.string([member.key]) }
      switch member.key {
      case "target":
        written.targets = try document.strings(member.value, memberPointer())
        if case .array(let elements) = member.value.kind { written.targetValues = elements } else { written.targetValues = [member.value] }
      case "kind":
        switch try document.string(member.value, memberPointer()) {
        case "external": written.kind = .external
        case "local": written.kind = .local
        case "internal": written.kind = .internal
        case let other:
          throw document.error(
            "unknown kind '\(other)'; expected external, local or internal", at: member.value, memberPointer())
        }
      case "guard":
        let name = try document.string(member.value, memberPointer())
        guard let body = bindings.guardBody(named: name) else {
          throw document.unbound("guard '\(name)'", at: member.value, memberPointer())
        }
        usedGuards.insert(name)
        written.guardName = name
        written.guardBody = .withTransition(body)
      case "actions":
        let names = try document.strings(member.value, memberPointer())
        var bodies: [(Model, Transition) throws -> Void] = []
        for (index, name) in names.enumerated() {
          bodies.append(try boundAction(name, at: member.value, memberPointer() + (member.value.isArray ? "/\(index)" : "")))
        }
        written.actionNames = names
        if !bodies.isEmpty {
          written.action = .withTransition { model, transition in
            for body in bodies { try body(model, transition) }
          }
        }
      case "description":
        written.description = try document.string(member.value, memberPointer())
      default:
        break
      }
    }
    return written
  }

  private mutating func boundAction(
    _ name: String, at value: JSONValue, _ pointer: @autoclosure () -> String
  ) throws(DefinitionError) -> (Model, Transition) throws -> Void {
    guard let body = bindings.actionBody(named: name) else { throw document.unbound("action '\(name)'", at: value, pointer()) }
    usedActions.insert(name)
    return body
  }

  /// What declares a transition: `on` (an event), `always`, `after` (a timeout) or `onDone`.
  private enum Trigger {
    case event(String)
    case always
    case after(Double)
    case done
  }

  private mutating func loadTransitions(
    _ fields: JSONFields, of node: Int, this: StateReference, path: String, _ pointer: @autoclosure () -> String
  ) throws(DefinitionError) {
    // One array for the source of every transition of the state.
    let from = [this]
    if let value = fields["on"] {
      for member in try document.object(value, pointer() + "/on") {
        // Made only for an error message.
        func eventPointer() -> String { pointer() + "/on" + JSONPointer.string([member.key]) }
        let event = try document.name(member.key, at: member.value, eventPointer(), what: "event")
        try loadList(member.value, eventPointer(), trigger: .event(event), node: node, from: from)
      }
    }
    if let value = fields["always"] {
      try loadList(value, pointer() + "/always", trigger: .always, node: node, from: from)
    }
    if let value = fields["after"] {
      for (index, element) in try document.array(value, pointer() + "/after").enumerated() {
        let elementPointer = pointer() + "/after/\(index)"
        let members = try document.object(element, elementPointer, allowed: JSONFormatKeys.timeout)
        guard let seconds = members.first(where: { $0.key == "seconds" }) else {
          throw document.error("a timeout needs 'seconds'", at: element, elementPointer)
        }
        let value = try document.number(seconds.value, elementPointer + "/seconds")
        guard value > 0, value <= 1e9 else {
          throw document.error("'seconds' must be positive (and at most 1e9)", at: seconds.value, elementPointer + "/seconds")
        }
        try loadTransition(element, elementPointer, trigger: .after(value), node: node, from: from, path: path)
      }
    }
    if let value = fields["onDone"] {
      try loadList(value, pointer() + "/onDone", trigger: .done, node: node, from: from)
    }
  }

  /// A target string, a transition object, or an array of them (in priority order).
  private mutating func loadList(
    _ value: JSONValue, _ pointer: @autoclosure () -> String, trigger: Trigger, node: Int, from: [StateReference]
  ) throws(DefinitionError) {
    if case .array(let elements) = value.kind {
      // A plain target written twice is one transition, as declaring it twice in code is.
      var plainTargets: Set<String> = []
      for (index, element) in elements.enumerated() {
        if case .string(let target) = element.kind, !plainTargets.insert(target).inserted { continue }
        try loadTransition(element, pointer() + "/\(index)", trigger: trigger, node: node, from: from, path: "")
      }
    } else {
      try loadTransition(value, pointer(), trigger: trigger, node: node, from: from, path: "")
    }
  }

  private mutating func loadTransition(
    _ value: JSONValue, _ pointer: @autoclosure () -> String, trigger: Trigger, node: Int,
    from: [StateReference], path: String
  ) throws(DefinitionError) {
    transitionCount += 1
    guard transitionCount <= document.limits.maxTransitions else {
      throw document.error("more transitions than the limit of \(document.limits.maxTransitions)", at: value, pointer())
    }
    var allowedKeys = JSONFormatKeys.transition
    if case .after = trigger { allowedKeys = JSONFormatKeys.timeout }
    if case .string(let target) = value.kind, case .event(let event) = trigger {
      // The common case, `"event": "target"`, without the general form's lists.
      references.append(
        Reference(reference: .name(target, scope: node), value: value, target: (store.declaredTransitions.count, 0)))
      store.declaredTransitions.append(.init(event: event, from: from, to: [.name(target, scope: node)]))
      return
    }
    let written = try readTransition(value, pointer(), allowed: allowedKeys)
    // Each target is reported where it is written; its pointer is found only for an error.
    for (index, target) in written.targets.enumerated() {
      references.append(
        Reference(
          reference: .name(target, scope: node), value: written.targetValues[index],
          target: (store.declaredTransitions.count, index)))
    }
    let kind = written.kind ?? (written.targets.isEmpty ? .internal : .external)
    var event = ""
    if case .event(let name) = trigger { event = name }
    if case .after(let seconds) = trigger { event = Self.timeoutEvent(seconds: seconds, path: path) }
    var spec = BuilderStore<Model>.TransitionSpec(
      event: event, from: from, to: written.targets.map { .name($0, scope: node) }, kind: kind)
    switch trigger {
    case .always: spec.isEventless = true
    case .done:
      guard written.targets.count <= 1 else { throw document.error("onDone takes one target", at: value, pointer()) }
      spec.isDoneTransition = true
    case .after(let seconds): spec.timeout = .seconds(seconds)
    case .event: break
    }
    spec.guardBody = written.guardBody
    spec.guardName = written.guardName
    spec.action = written.action
    spec.actionNames = written.actionNames
    spec.description = written.description
    store.declaredTransitions.append(spec)
  }

  /// The event of a timeout (`after`): named after its delay and state, so that it can also be
  /// fired by name.
  static func timeoutEvent(seconds: Double, path: String) -> String {
    let delay = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    return "after.\(delay)s.\(path)"
  }
}

/// The keys of `statemachines/1`, made once (a generic type cannot store them).
private enum JSONFormatKeys {
  /// The state types (`type`) and the keys each allows.
  static let byType: [String: Set<String>] = {
    let common: Set<String> = ["type", "description"]
    let behaviour: Set<String> = ["on", "always", "after", "entry", "exit"]
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
  static let timeout: Set<String> = transition.union(["seconds"])
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
