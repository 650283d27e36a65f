internal import StateMachinesNames

/// Loads a TBStateMachine JSON definition (Hierarchy §7, §10): `states` as an array of
/// `{name, type: state|sub|parallel, states | regions}`, and `transitions` as an array of simple
/// transitions (`kind`, `name` = event, `source`, `target` as paths such as `b@0/b11`) and
/// compound ones (a fork, join or junction pseudostate with incoming and outgoing vertices).
/// TBStateMachine's load-time exceptions become ``DefinitionError``s with the JSON pointer of the
/// culprit.
struct TBDefinitionLoader<Model> {
  let document: JSONDocument
  let store: BuilderStore<Model>
  private var stateCount = 0
  private var transitionCount = 0
  /// References checked once the tree is known.
  private var references: [(reference: StateReference, value: JSONValue, pointer: String)] = []
  /// Internal transitions, whose target must be their source: (source, target, where).
  private var internalTransitions: [(source: StateReference, target: StateReference, value: JSONValue, pointer: String)] = []
  /// Fork targets and join sources, which must lie in the pseudostate's region (a parallel state).
  private var regionMembers: [(region: StateReference, member: StateReference, value: JSONValue, pointer: String)] = []
  /// Where each declaration is, to locate an error compiling finds.
  private(set) var sites = JSONSourceMap()

  init(_ document: JSONDocument, store: BuilderStore<Model>) {
    self.document = document
    self.store = store
  }

  /// Whether `root` looks like a TBStateMachine document: `states` is an array.
  static func detects(_ root: JSONValue) -> Bool {
    guard case .object(let members) = root.kind else { return false }
    return members.contains { $0.key == "states" && $0.value.isArray }
  }

  mutating func load() throws(DefinitionError) {
    let members = try document.object(document.root, "", allowed: ["name", "states", "transitions"])
    let fields = document.fields(members)
    if let name = fields["name"] { _ = try document.string(name, "/name") }
    guard let states = fields["states"] else { throw document.error("a definition needs 'states'", at: document.root, "") }
    let list = try document.array(states, "/states")
    guard !list.isEmpty else { throw document.error("'states' is empty", at: states, "/states") }
    for (index, state) in list.enumerated() { try loadState(state, in: -1, pointer: "/states/\(index)") }
    if let transitions = fields["transitions"] {
      for (index, transition) in try document.array(transitions, "/transitions").enumerated() {
        try loadTransition(transition, pointer: "/transitions/\(index)")
      }
    }
    try check()
  }

  // MARK: States

  private mutating func loadState(_ value: JSONValue, in parent: Int, pointer: String) throws(DefinitionError) {
    stateCount += 1
    guard stateCount <= document.limits.maxStates else {
      throw document.error("more states than the limit of \(document.limits.maxStates)", at: value, pointer)
    }
    let members = try document.object(value, pointer, allowed: ["name", "type", "states", "regions"])
    let fields = document.fields(members)
    guard let nameValue = fields["name"] else { throw document.error("a state needs a 'name'", at: value, pointer) }
    let name = try stateName(nameValue, pointer + "/name")
    guard let typeValue = fields["type"] else { throw document.error("a state needs a 'type'", at: value, pointer) }
    let type = try document.string(typeValue, pointer + "/type")
    switch type {
    case "state":
      if let extra = fields["states"] ?? fields["regions"] {
        throw document.error("a state of type 'state' has no children; use 'sub' or 'parallel'", at: extra, pointer)
      }
      sites.declared(store.declare(name, kind: .state, in: parent), at: value)
    case "sub":
      guard let states = fields["states"] else { throw document.error("a 'sub' state needs 'states'", at: value, pointer) }
      let list = try document.array(states, pointer + "/states")
      guard !list.isEmpty else { throw document.error("a 'sub' state needs at least one state", at: states, pointer + "/states") }
      let node = store.declare(name, kind: .state, in: parent)
      sites.declared(node, at: value)
      for (index, child) in list.enumerated() { try loadState(child, in: node, pointer: pointer + "/states/\(index)") }
    case "parallel":
      guard let regions = fields["regions"] else { throw document.error("a parallel state needs 'regions'", at: value, pointer) }
      let list = try document.array(regions, pointer + "/regions")
      guard !list.isEmpty else { throw document.error("a parallel state needs at least one region", at: regions, pointer + "/regions") }
      let node = store.declare(name, kind: .parallel, in: parent)
      sites.declared(node, at: value)
      for (regionIndex, region) in list.enumerated() {
        let regionPointer = pointer + "/regions/\(regionIndex)"
        let states = try document.array(region, regionPointer)
        guard !states.isEmpty else { throw document.error("a region needs at least one state", at: region, regionPointer) }
        let regionNode = store.declareAnonymousRegion(in: node)
        sites.region(regionNode, at: region)
        for (index, child) in states.enumerated() { try loadState(child, in: regionNode, pointer: regionPointer + "/\(index)") }
      }
    default:
      throw document.error("unknown state type '\(type)'; expected state, sub or parallel", at: typeValue, pointer + "/type")
    }
  }

  private func stateName(_ value: JSONValue, _ pointer: String) throws(DefinitionError) -> String {
    let name = try document.name(try document.string(value, pointer), at: value, pointer, what: "state")
    do throws(NameError) {
      try NameGrammar.checkStateName(name)
    } catch {
      throw document.error(error.located, at: value, pointer)
    }
    return name
  }

  // MARK: Transitions

  private mutating func count(_ value: JSONValue, _ pointer: String) throws(DefinitionError) {
    transitionCount += 1
    guard transitionCount <= document.limits.maxTransitions else {
      throw document.error("more transitions than the limit of \(document.limits.maxTransitions)", at: value, pointer)
    }
  }

  private mutating func path(_ value: JSONValue?, _ key: String, in parent: JSONValue, _ pointer: String) throws(DefinitionError) -> StateReference {
    guard let value else { throw document.error("a transition needs '\(key)'", at: parent, pointer) }
    let text = try document.name(try document.string(value, pointer + "/" + key), at: value, pointer + "/" + key, what: key)
    let reference = StateReference.name(text, scope: -1)
    references.append((reference, value, pointer + "/" + key))
    return reference
  }

  private mutating func loadTransition(_ value: JSONValue, pointer: String) throws(DefinitionError) {
    guard case .object(let members) = value.kind else {
      throw document.error("expected a transition object, found \(value.kindName)", at: value, pointer)
    }
    let fields = document.fields(members)
    guard let typeValue = fields["type"] else { throw document.error("a transition needs a 'type'", at: value, pointer) }
    switch try document.string(typeValue, pointer + "/type") {
    case "simple":
      _ = try document.object(value, pointer, allowed: ["type", "kind", "name", "source", "target"])
      try count(value, pointer)
      guard let nameValue = fields["name"] else { throw document.error("a transition needs a 'name' (its event)", at: value, pointer) }
      let event = try document.name(try document.string(nameValue, pointer + "/name"), at: nameValue, pointer + "/name", what: "event")
      guard let kindValue = fields["kind"] else { throw document.error("a transition needs a 'kind'", at: value, pointer) }
      let kind: TransitionKind
      switch try document.string(kindValue, pointer + "/kind") {
      case "external": kind = .external
      case "local": kind = .local
      case "internal": kind = .internal
      case let other: throw document.error("unknown kind '\(other)'; expected external, local or internal", at: kindValue, pointer + "/kind")
      }
      let source = try path(fields["source"], "source", in: value, pointer)
      let target = try path(fields["target"], "target", in: value, pointer)
      if kind == .internal { internalTransitions.append((source, target, value, pointer)) }
      store.declaredTransitions.append(.init(event: event, from: [source], to: [target], kind: kind))
      sites.transition(at: value)
    case "compound":
      try loadCompound(value, fields, pointer)
    case let other:
      throw document.error("unknown transition type '\(other)'; expected simple or compound", at: typeValue, pointer + "/type")
    }
  }

  /// A fork, join or junction: its incoming transitions (each with an event) and outgoing ones.
  private mutating func loadCompound(_ value: JSONValue, _ fields: JSONFields, _ pointer: String) throws(DefinitionError) {
    _ = try document.object(value, pointer, allowed: ["type", "name", "vertices", "pseudo_state"])
    guard let vertices = fields["vertices"] else { throw document.error("a compound transition needs 'vertices'", at: value, pointer) }
    guard let pseudo = fields["pseudo_state"] else { throw document.error("a compound transition needs 'pseudo_state'", at: value, pointer) }
    let vertexFields = try document.object(vertices, pointer + "/vertices", allowed: ["incoming", "outgoing"])
    let pseudoPointer = pointer + "/pseudo_state"
    let pseudoFields = document.fields(try document.object(pseudo, pseudoPointer, allowed: ["type", "name", "region"]))
    guard let typeValue = pseudoFields["type"] else { throw document.error("a pseudostate needs a 'type'", at: pseudo, pseudoPointer) }
    let type = try document.string(typeValue, pseudoPointer + "/type")
    guard let nameValue = pseudoFields["name"] else { throw document.error("a pseudostate needs a 'name'", at: pseudo, pseudoPointer) }
    let name = try stateName(nameValue, pseudoPointer + "/name")
    var incoming: [(source: StateReference, event: String, value: JSONValue, pointer: String)] = []
    var outgoing: [(target: StateReference, value: JSONValue, pointer: String)] = []
    for member in vertexFields {
      for (index, vertex) in try document.array(member.value, pointer + "/vertices/" + member.key).enumerated() {
        let vertexPointer = pointer + "/vertices/\(member.key)/\(index)"
        if member.key == "incoming" {
          let vertexFieldsByKey = document.fields(try document.object(vertex, vertexPointer, allowed: ["source", "name"]))
          let source = try path(vertexFieldsByKey["source"], "source", in: vertex, vertexPointer)
          guard let eventValue = vertexFieldsByKey["name"] else { throw document.error("an incoming vertex needs a 'name' (its event)", at: vertex, vertexPointer) }
          let event = try document.name(try document.string(eventValue, vertexPointer + "/name"), at: eventValue, vertexPointer + "/name", what: "event")
          incoming.append((source, event, vertex, vertexPointer))
        } else {
          let vertexFieldsByKey = document.fields(try document.object(vertex, vertexPointer, allowed: ["target"]))
          outgoing.append((try path(vertexFieldsByKey["target"], "target", in: vertex, vertexPointer), vertex, vertexPointer))
        }
      }
    }
    guard !incoming.isEmpty else { throw document.error("a compound transition needs incoming vertices", at: vertices, pointer + "/vertices") }
    guard !outgoing.isEmpty else { throw document.error("a compound transition needs outgoing vertices", at: vertices, pointer + "/vertices") }
    var region: StateReference?
    if let regionValue = pseudoFields["region"] { region = try path(regionValue, "region", in: pseudo, pseudoPointer) }
    for vertex in incoming { try count(vertex.value, vertex.pointer) }
    switch type {
    case "fork":
      guard incoming.count == 1 else { throw document.error("a fork has one incoming vertex", at: vertices, pointer + "/vertices/incoming") }
      if let region { for vertex in outgoing { regionMembers.append((region, vertex.target, vertex.value, vertex.pointer)) } }
      store.declaredTransitions.append(.init(event: incoming[0].event, from: [incoming[0].source], to: outgoing.map(\.target)))
      sites.transition(at: incoming[0].value, targets: outgoing.map(\.value))
    case "join":
      guard outgoing.count == 1 else { throw document.error("a join has one outgoing vertex", at: vertices, pointer + "/vertices/outgoing") }
      if let region { for vertex in incoming { regionMembers.append((region, vertex.source, vertex.value, vertex.pointer)) } }
      let join = store.declare(name, kind: .join, in: -1)
      sites.declared(join, at: pseudo)
      store.nodes[join].targets = [outgoing[0].target.text]
      for vertex in incoming {
        store.declaredTransitions.append(.init(event: vertex.event, from: [vertex.source], to: [.name(name, scope: -1)]))
        sites.transition(at: vertex.value)
      }
    case "junction":
      // TBStateMachine needs a guard on every junction path; JSON cannot carry one.
      throw document.error("junction '\(name)': a junction path needs a guard, which JSON cannot give; add the junction in code", at: pseudo, pseudoPointer)
    default:
      throw document.error("unknown pseudostate type '\(type)'; expected fork, join or junction", at: typeValue, pseudoPointer + "/type")
    }
  }

  // MARK: Checks that need the tree

  private func check() throws(DefinitionError) {
    let tree = try document.tree(of: store, sites: sites)
    func resolve(_ reference: StateReference, _ value: JSONValue, _ pointer: String) throws(DefinitionError) -> Int32 {
      try document.resolve(reference, in: tree, at: value, pointer)
    }
    for (reference, value, pointer) in references { _ = try resolve(reference, value, pointer) }
    for transition in internalTransitions
    where try resolve(transition.source, transition.value, transition.pointer)
      != resolve(transition.target, transition.value, transition.pointer)
    {
      throw document.error(
        "an internal transition must target its source ('\(transition.source.text)', not '\(transition.target.text)')",
        at: transition.value, transition.pointer)
    }
    for entry in regionMembers {
      let region = try resolve(entry.region, entry.value, entry.pointer)
      let member = try resolve(entry.member, entry.value, entry.pointer)
      guard tree.kinds[Int(region)] == .parallel else {
        throw document.error("region '\(entry.region.text)' is not a parallel state", at: entry.value, entry.pointer)
      }
      guard tree.isDescendant(member, of: region) else {
        throw document.error("'\(entry.member.text)' is not in region '\(entry.region.text)'", at: entry.value, entry.pointer)
      }
    }
  }
}
