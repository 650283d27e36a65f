// The entry actions of a state: one procedure for every engine and for starting a machine.

extension StateMachineDefinition {
  /// Runs the entry actions of `state` in declaration order, on a machine this thread owns, and
  /// queues the event an action asks for (``NextStep``). Throws what an action throws, or
  /// ``StateMachineError/unknownEvent(_:)`` for a next step that names no event: the caller
  /// decides what the failure means (SEMANTICS step 7: the state stands, the rest is skipped).
  @inlinable
  func runEntryActions(of state: Int32, _ model: Model, _ transition: () -> Transition) throws {
    let actions = compiled.entryActions[Int(state)]
    if actions.isEmpty { return }
    trace("entry '\(stateName(state))'")
    for action in actions {
      if let next = try action(model, transition) { try enqueue(next, model) }
    }
  }
}
