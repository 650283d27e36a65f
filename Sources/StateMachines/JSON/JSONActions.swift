// The actions of a `statemachines/1` document (`actions`, `entry`, `exit`): a name bound in code,
// or a declared action as an object: `{"raise": "e"}`, `{"send": "e"}`,
// `{"send": "e", "delay": 2.5, "id": "t"}` (seconds), `{"cancel": "t"}`.

extension JSONDefinitionLoader where Model: StateMachineObject {
  /// The actions `value` lists (a string, or an array of strings and objects), each with its
  /// runtime body.
  mutating func readActions(
    _ value: JSONValue, _ pointer: @autoclosure () -> String
  ) throws(DefinitionError) -> [(entry: ActionEntry, body: (Model, Transition) throws -> Void)] {
    let elements: [JSONValue]
    if case .array(let list) = value.kind { elements = list } else { elements = [value] }
    var result: [(entry: ActionEntry, body: (Model, Transition) throws -> Void)] = []
    for (index, element) in elements.enumerated() {
      let elementPointer = value.isArray ? pointer() + "/\(index)" : pointer()
      if case .object = element.kind {
        let action = try declaredAction(element, elementPointer)
        result.append((.declared(action), { model, _ in model.perform([action]) }))
      } else {
        let name = try document.string(element, elementPointer)
        // Located at the list, as a name always was.
        result.append((.bound(name), try boundAction(name, at: value, elementPointer)))
      }
    }
    return result
  }

  /// `{"raise": e}`, `{"send": e, "delay": seconds, "id": id}` or `{"cancel": id}`.
  private func declaredAction(_ value: JSONValue, _ pointer: String) throws(DefinitionError) -> DeclaredAction {
    let members = try document.object(value, pointer, allowed: JSONFormatKeys.declaredAction)
    let fields = document.fields(members)
    func text(_ key: String) throws(DefinitionError) -> String? {
      guard let field = fields[key] else { return nil }
      return try document.name(try document.string(field, pointer + "/\(key)"), at: field, pointer + "/\(key)", what: key)
    }
    let kinds = ["raise", "send", "cancel"].filter { fields[$0] != nil }
    guard kinds.count == 1 else {
      throw document.error("an action object needs exactly one of 'raise', 'send' and 'cancel'", at: value, pointer)
    }
    if kinds[0] != "send", let extra = ["delay", "id"].first(where: { fields[$0] != nil }) {
      throw document.error("'\(extra)' belongs to a 'send' action", at: fields[extra]!, pointer + "/\(extra)")
    }
    if let event = try text("raise") { return .raise(event) }
    if let id = try text("cancel") { return .cancel(id) }
    let event = try text("send")!
    guard let delayValue = fields["delay"] else {
      if fields["id"] != nil { throw document.error("'id' needs a 'delay'", at: fields["id"]!, pointer + "/id") }
      return .send(event)
    }
    let seconds = try document.number(delayValue, pointer + "/delay")
    guard seconds > 0, seconds <= 1e9 else {
      throw document.error("'delay' must be positive (and at most 1e9)", at: delayValue, pointer + "/delay")
    }
    return .send(event, delay: .seconds(seconds), id: try text("id"))
  }
}

extension JSONOutput {
  /// An action as the format writes it; `nil` for a declared action it has no form for (a choice).
  init?(_ entry: ActionEntry) {
    switch entry {
    case .bound(let name): self = .string(name)
    case .declared(.raise(let event)): self = .object([("raise", .string(event))])
    case .declared(.send(let event, nil, _)): self = .object([("send", .string(event))])
    case .declared(.send(let event, let delay?, let id)):
      let (seconds, attoseconds) = delay.components
      self = .object(
        [("send", .string(event)), ("delay", .number(Double(seconds) + Double(attoseconds) / 1e18))]
          + (id.map { [("id", JSONOutput.string($0))] } ?? []))
    case .declared(.cancel(let id)): self = .object([("cancel", .string(id))])
    case .declared(.choose): return nil
    }
  }
}

extension JSONExporter {
  /// A transition's actions as the document writes them: as loaded, or its declared actions when
  /// it runs no code; `nil` when it runs code that has no name.
  static func actionEntries(of spec: BuilderStore<Model>.TransitionSpec) -> [ActionEntry]? {
    if !spec.actionEntries.isEmpty { return spec.actionEntries }
    if spec.action == nil { return [] }
    if spec.actionHasCode || spec.declaredActions.isEmpty { return nil }
    return spec.declaredActions.map(ActionEntry.declared)
  }

  /// An entry or exit action as written: its bound name, or its declared actions; `nil` for code.
  static func written(_ name: String?, _ declared: [DeclaredAction]?) -> [ActionEntry]? {
    if let name { return [.bound(name)] }
    return declared.map { $0.map(ActionEntry.declared) }
  }

  /// `entries` as the format's array.
  static func output(_ entries: [ActionEntry]) throws(DefinitionError) -> JSONOutput {
    var list: [JSONOutput] = []
    for entry in entries {
      guard let output = JSONOutput(entry) else { throw cannot("a choice among declared actions (choose)") }
      list.append(output)
    }
    return .array(list)
  }
}
