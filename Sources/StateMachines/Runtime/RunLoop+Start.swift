// Starting a machine: entering its current state (entry actions, timeouts, notifications) on
// `startStateMachine()` or on its first use.

extension RunLoop {
  /// Whether entering `state` runs anything: entry actions (unless it was restored), timeouts
  /// or notifications.
  static func needsEntering(_ definition: StateMachineDefinition<Model>, _ state: Int32, restored: Bool) -> Bool {
    switch definition.compiled.engine {
    case .flat:
      // A machine that posts its entries announces the first one.
      if definition.compiled.postsStateNotifications { return true }
      guard state >= 0, Int(state) < definition.compiled.armsTriggers.count else { return false }
      return definition.compiled.armsTriggers[Int(state)]
        || (!restored && definition.compiled.hasEntryActions[Int(state)])
    case .statechart:
      // A statechart computes its initial configuration when it starts.
      return true
    }
  }

  /// Enters the current state of a machine that has not started, on a machine this thread owns:
  /// arms its triggers, then runs its entry actions (not for a restored state).
  @usableFromInline
  static func enter(_ definition: StateMachineDefinition<Model>, _ model: Model) -> StepOutcome {
    let (state, restored, terminated) = definition.locked(model) {
      let storage = model._$stateMachineStorage
      model._$stateMachineStorage.set(StateMachineStorage.unstartedFlag | StateMachineStorage.restoredFlag, false)
      return (storage.stateIndex, storage.slowPathFlags & StateMachineStorage.restoredFlag != 0, storage.isTerminated)
    }
    if terminated { return .accepted }
    switch definition.compiled.engine {
    case .flat: return FlatEngine.enter(definition, state, model, restored: restored)
    case .statechart(let chart): return StatechartEngine.enterChart(definition, chart, model, restored: restored)
    }
  }

  /// Starts the machine if it has not started: enters the current state as a run-to-completion
  /// step. Does nothing for a machine that has started (explicitly, by its first use, or by
  /// `restoreState`).
  static func start(_ definition: StateMachineDefinition<Model>, _ model: Model) throws(StateMachineError) {
    if let definitionError = definition.definitionError { throw .invalidDefinition(definitionError) }
    // A busy machine is running a step, so it has started.
    guard case .taken = admit(definition, model, whileBusy: {}) else { return }
    let (unstarted, mayBeInspected) = definition.locked(model) {
      (model._$stateMachineStorage.isUnstarted, model._$stateMachineStorage.mayBeInspected)
    }
    // An inspected start is recorded as a step without an event.
    let inspected =
      unstarted && mayBeInspected ? Inspection.beginInspectedRun(definition, -1, source: .api, payload: nil, model) : nil
    let outcome = unstarted ? enter(definition, model) : .accepted
    if let inspected { Inspection.endInspectedRun(definition, -1, source: .api, payload: nil, outcome, model, inspected) }
    if endRun(definition, model, event: -1) { throw definition.limitError(-1) }
    if case .failed(let error, _) = outcome { throw error }
  }
}
