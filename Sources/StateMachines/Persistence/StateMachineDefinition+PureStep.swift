// The store's fast path (Persistence §6): an event whose step runs no code needs no object.
// The definition answers, from a row's machine columns alone, whether the step is pure and what
// it writes, so that a store can write it without loading, decoding or re-encoding the object.

extension StateMachineDefinition {
  /// The step `event` takes from a row whose machine columns are `stored`, when that step runs no
  /// code: a store may then write it without an object (the fast path of Persistence §6). `nil`
  /// when the step needs the object or is not taken, and the store runs
  /// ``storeStep(_:payload:on:)`` instead, which gives the same result or the rejection.
  ///
  /// A step is pure when the definition is flat and valid, the row is not terminated, and the
  /// compiled slot of (state, event) is the tier that runs no code: one transition without a
  /// guard or action, no `before`/`after` callback of the event, no exit or entry action, no
  /// timeout or notification armed in the state left or the state entered, a target that is not
  /// final, and no observer, log or state notification on the definition (each of these makes
  /// the slot take the full step); and no outbox rule of `configuration` names the event (P16:
  /// a message's `make` takes the object). A statechart's steps (history, eventless follow-ups,
  /// regions) always take the normal path. A store takes the fast path only to fire by id: a
  /// fire on an object runs on the caller's object (P4).
  ///
  /// The result is what ``storeStep(_:payload:on:)`` would return on an object loaded from
  /// `stored`: one microstep (one history row, P2) at `stored.version + 1`, no deadline to
  /// delete or insert (P8), nothing held back for after the commit (P5).
  public func pureStoreStep(
    _ event: String, payload: (any Sendable)?, from stored: StoredMachineState, configuration: StoreConfiguration<Model>
  ) -> StoreStep? {
    guard definitionError == nil, case .flat = compiled.engine, !stored.isTerminated,
      let from = compiled.stateTable.index(of: stored.state), compiled.states[Int(from)] == stored.state,
      let index = eventIndex(event)
    else { return nil }
    let slot = compiled.fastSlots[
      TransitionSlot.position(event: Int(index), state: Int(from), columnHeight: compiled.columnHeight)]
    guard slot.isFast else { return nil }
    let to = slot.fastTarget
    guard !configuration.outboxRules.contains(where: { $0.event == eventName(index) }) else { return nil }
    let transition = CompletedTransition(
      from: stateName(from), event: eventName(index), to: stateName(to), payload: payload)
    let after = StoredMachineState(
      state: stateName(to), version: stored.version + 1, isTerminated: false, history: nil)
    return StoreStep(
      event: event, before: stored, after: after, transitions: [transition], exited: [], armed: [],
      held: HeldBack.none)
  }

  /// Every pure step of `event` (``pureStoreStep(_:payload:from:configuration:)``), as the
  /// stored state it leaves and the one it enters: what a SQL store's one-statement fast path
  /// maps a row's state through (Persistence §6). Empty when the event never takes a pure step.
  public func pureStoreTransitions(_ event: String, configuration: StoreConfiguration<Model>)
    -> [(from: String, to: String)]
  {
    guard case .flat = compiled.engine else { return [] }
    return compiled.states.compactMap { state in
      pureStoreStep(event, payload: nil, from: StoredMachineState(state: state), configuration: configuration)
        .map { (state, $0.after.state) }
    }
  }
}
