// The transitions of a `statemachines/1` document: `on`, eventless, timeouts and `onDone`.

internal import StateMachinesNames

extension JSONDefinitionLoader {
  // MARK: Transitions

  /// A transition as written: a target string, or an object.
  struct WrittenTransition {
    var targets: [String] = []
    /// Where each target is written.
    var targetValues: [JSONValue] = []
    var kind: TransitionKind?
    var guardName: String?
    var guardBody: MachineGuard<Model>?
    var actionEntries: [ActionEntry] = []
    var action: MachineCallback<Model>?
    var description: String?
  }

  mutating func readTransition(
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
        let actions = try readActions(member.value, memberPointer())
        let bodies = actions.map(\.body)
        written.actionEntries = actions.map(\.entry)
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

  mutating func boundAction(
    _ name: String, at value: JSONValue, _ pointer: @autoclosure () -> String
  ) throws(DefinitionError) -> (Model, Transition) throws -> Void {
    guard let body = bindings.actionBody(named: name) else { throw document.unbound("action '\(name)'", at: value, pointer()) }
    usedActions.insert(name)
    return body
  }

  /// What declares a transition: `on` (an event), `always`, `after` (a timeout), `onDone`, or
  /// an invoke's `onDone`/`onError` (its result event, and its id).
  enum Trigger {
    case event(String)
    case always
    case after(Double)
    case done
    case invokeResult(String, id: String)
  }

  mutating func loadTransitions(
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
  mutating func loadList(
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

  mutating func loadTransition(
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
      sites.transition(at: value)
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
    if case .invokeResult(let name, _) = trigger { event = name }
    var spec = BuilderStore<Model>.TransitionSpec(
      event: event, from: from, to: written.targets.map { .name($0, scope: node) }, kind: kind)
    switch trigger {
    case .always: spec.isEventless = true
    case .done:
      guard written.targets.count <= 1 else { throw document.error("onDone takes one target", at: value, pointer()) }
      spec.isDoneTransition = true
    case .after(let seconds): spec.timeout = .seconds(seconds)
    case .invokeResult(_, let id): spec.invokeID = id
    case .event: break
    }
    spec.guardBody = written.guardBody
    spec.guardName = written.guardName
    spec.action = written.action
    spec.actionEntries = written.actionEntries
    spec.declaredActions = ActionEntry.declared(in: written.actionEntries)
    spec.actionHasCode = ActionEntry.hasCode(written.actionEntries)
    spec.description = written.description
    store.declaredTransitions.append(spec)
    sites.transition(at: value, targets: written.targetValues)
  }
}
