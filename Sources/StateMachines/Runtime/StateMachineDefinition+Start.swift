// Starting a machine: entering its current state (entry actions, timeouts, notifications) on
// `startStateMachine()` or on its first use.

extension StateMachineDefinition {
  /// Whether entering `state` runs anything: entry actions (unless it was restored), timeouts
  /// or notifications.
  func needsEntering(_ state: Int32, restored: Bool) -> Bool {
    switch compiled.engine {
    case .flat:
      // A machine that posts its entries announces the first one.
      if compiled.postsStateNotifications { return true }
      guard state >= 0, Int(state) < compiled.armsTriggers.count else { return false }
      return compiled.armsTriggers[Int(state)] || (!restored && compiled.hasEntryActions[Int(state)])
    case .statechart:
      // A statechart computes its initial configuration when it starts.
      return true
    }
  }

  /// Enters the current state of a machine that has not started, on a machine this thread owns:
  /// arms its triggers, then runs its entry actions (not for a restored state).
  @usableFromInline
  func enter(_ model: Model) -> StepOutcome {
    let (state, restored, terminated) = locked(model) {
      let storage = model._$stateMachineStorage
      model._$stateMachineStorage.set(StateMachineStorage.unstartedFlag | StateMachineStorage.restoredFlag, false)
      return (storage.stateIndex, storage.slowPathFlags & StateMachineStorage.restoredFlag != 0, storage.isTerminated)
    }
    if terminated { return .accepted }
    switch compiled.engine {
    case .flat: return enterFlat(state, model, restored: restored)
    case .statechart(let chart): return StatechartEngine.enterChart(self, chart, model, restored: restored)
    }
  }

  /// Enters a flat machine's `state`: arms its triggers, then runs its entry actions (not for a
  /// `restored` state).
  func enterFlat(_ state: Int32, _ model: Model, restored: Bool) -> StepOutcome {
    trace("start in '\(stateName(state))'")
    if !restored, let capture = locked(model, { model._$stateMachineStorage.extras?.capture }) {
      capture.noteMicrostep(exits: [], entries: [state], transitions: [])
    }
    arm(state, model, entering: restored ? .restore : .start)
    if restored { return .accepted }
    let transition = Transition(event: "", from: stateName(state), to: stateName(state))
    if announces(model) { announce(.entry, state, event: -1, payload: nil, model) }
    do {
      try runEntryActions(of: state, model) { transition }
    } catch {
      return failed("", transitionHappened: true, error)
    }
    return .accepted
  }

  /// Starts the machine if it has not started: enters the current state as a run-to-completion
  /// step. Does nothing for a machine that has started (explicitly, by its first use, or by
  /// `restoreState`).
  func start(_ model: Model) throws(StateMachineError) {
    if let definitionError { throw .invalidDefinition(definitionError) }
    // A busy machine is running a step, so it has started.
    guard case .taken = RunLoop.admit(self, model, whileBusy: {}) else { return }
    let (unstarted, mayBeInspected) = locked(model) {
      (model._$stateMachineStorage.isUnstarted, model._$stateMachineStorage.mayBeInspected)
    }
    // An inspected start is recorded as a step without an event.
    let inspected = unstarted && mayBeInspected ? beginInspectedRun(-1, source: .api, payload: nil, model) : nil
    let outcome = unstarted ? enter(model) : .accepted
    if let inspected { endInspectedRun(-1, source: .api, payload: nil, outcome, model, inspected) }
    if RunLoop.endRun(self, model, event: -1) { throw limitError(-1) }
    if case .failed(let error, _) = outcome { throw error }
  }
}
