// The invokes of a `statemachines/1` state (Invoke A.5): `"invoke": [{ "id", "src", "onDone",
// "onError", "onRestore" }]`, the work bound by name.

internal import StateMachinesNames

extension JSONDefinitionLoader {
  /// Declares the invokes of state `node`, in array order (I1), and their result transitions
  /// (`onDone`, `onError`: a target, a transition object or an array of them, like `on`).
  mutating func loadInvokes(
    _ value: JSONValue, node: Int, this: StateReference, _ statePointer: @autoclosure () -> String
  ) throws(DefinitionError) {
    for (index, element) in try document.array(value, statePointer() + "/invoke").enumerated() {
      // Made only for an error message.
      func pointer() -> String { statePointer() + "/invoke/\(index)" }
      let fields = document.fields(try document.object(element, pointer(), allowed: JSONFormatKeys.invoke))
      guard let sourceValue = fields["src"] else { throw document.error("an invoke needs 'src'", at: element, pointer()) }
      let source = try document.string(sourceValue, pointer() + "/src")
      guard let work = bindings.invocationWork(named: source) else {
        throw document.unbound("invocation '\(source)'", at: sourceValue, pointer() + "/src")
      }
      usedInvocations.insert(source)
      // The id defaults to the source: one invoke of a source per machine needs no id.
      var id = source
      if let idValue = fields["id"] {
        id = try document.name(try document.string(idValue, pointer() + "/id"), at: idValue, pointer() + "/id", what: "invoke")
      }
      do throws(NameError) {
        try NameGrammar.checkStateName(id)
      } catch {
        throw document.error("invoke id: " + error.located, at: fields["id"] ?? sourceValue, pointer())
      }
      var spec = InvocationSpec<Model>.bound(id: id, state: this, work: work)
      if let autoforward = fields["autoforward"] {
        guard case .bool(let isOn) = autoforward.kind else {
          throw document.error("expected a boolean, found \(autoforward.kindName)", at: autoforward, pointer() + "/autoforward")
        }
        spec.autoforward = isOn  // I13
      }
      if let policy = fields["onRestore"] {
        switch try document.string(policy, pointer() + "/onRestore") {
        case "restart": spec.onRestore = .restart
        case "fail": spec.onRestore = .fail
        case let other:
          throw document.error("unknown onRestore '\(other)'; expected restart or fail", at: policy, pointer() + "/onRestore")
        }
      }
      store.invocations.append(spec)
      for (key, event) in [("onDone", InvocationEvents.done(id)), ("onError", InvocationEvents.error(id))] {
        guard let transitions = fields[key] else { continue }
        try loadList(
          transitions, pointer() + "/" + key, trigger: .invokeResult(event, id: id), node: node, from: [this])
      }
    }
  }
}
