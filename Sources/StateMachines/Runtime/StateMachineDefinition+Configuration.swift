// The configuration queries and operations of §3: active states and leaves, a description of the
// active tree, stopping, posting, and restoring a configuration (S1).

internal import StateMachinesNames

extension StateMachineDefinition {
  /// Every active state's canonical path, in document order (a flat machine: its state).
  public func activeStates(of model: Model) -> [String] {
    startIfNeeded(model)
    return activeStateIndices(model).map { stateName($0) }
  }

  /// The active leaves' canonical paths, in document order.
  public func activeLeaves(of model: Model) -> [String] {
    startIfNeeded(model)
    return activeStateIndices(model).filter { compiled.engine.isAtomic($0) }.map { stateName($0) }
  }

  /// The active states' indices in document order (a flat machine: its state), which
  /// ``stateName(_:)`` turns into canonical paths.
  func activeStateIndices(_ model: Model) -> [Int32] {
    switch compiled.engine {
    case .flat: return [locked(model) { model._$stateMachineStorage.stateIndex }]
    case .statechart(let chart): return StatechartEngine.chartConfiguration(self, model, chart).active.members
    }
  }

  /// The active states as an indented tree, one per line (TBStateMachine's debugger view).
  public func configurationDescription(of model: Model) -> String {
    startIfNeeded(model)
    switch compiled.engine {
    case .flat: return currentState(of: model)
    case .statechart(let chart):
      return StatechartEngine.chartConfiguration(self, model, chart).active.members.map { state in
        let depth = chart.tree.ancestors(of: state).count
        let name = chart.tree.names[Int(state)]
        return String(repeating: "  ", count: depth) + (name.isEmpty ? StatePath.splitDeclaration(chart.tree.paths[Int(state)]).name : name)
      }.joined(separator: "\n")
    }
  }

  /// Exits every active state, children first and later regions first, running exit actions
  /// (TBStateMachine's `tearDown`). The machine is then unstarted: its next use starts it again
  /// from the initial configuration.
  ///
  /// - Throws: ``StateMachineError/busy(_:)`` from inside a step;
  ///   ``StateMachineError/callbackFailed(event:transitionHappened:underlying:)`` if an exit
  ///   action threw (the machine is stopped all the same).
  public func stop(_ model: Model) throws(StateMachineError) {
    guard case .taken = RunLoop.admit(self, model, whileBusy: {}) else { throw .busy("stopStateMachine") }
    var failure: (any Error)?
    let unstarted = locked(model) { model._$stateMachineStorage.isUnstarted }
    let active = unstarted ? [] : activeStateIndices(model)
    if !unstarted {
      let state = currentState(of: model)
      let transition = Transition(event: "", from: state, to: "", source: state, targets: [], kind: .external)
      let announces = StateAnnouncements.announces(self, model)
      for index in active.reversed() {
        if announces { StateAnnouncements.announce(self, .exit, index, event: -1, payload: nil, model) }
        for action in compiled.exitActions[Int(index)] {
          do { try action(model, { transition }) } catch { if failure == nil { failure = error } }
        }
      }
    }
    Triggers.disarm(self, model)
    model._$stateMachineWillChangeState()
    locked(model) {
      model._$stateMachineStorage.extras?.chart = nil
      model._$stateMachineStorage.stateIndex = compiled.initialStateIndex
      model._$stateMachineStorage.isTerminated = false
      model._$stateMachineStorage.set(StateMachineStorage.unstartedFlag, true)
      model._$stateMachineStorage.set(StateMachineStorage.restoredFlag, false)
    }
    model._$stateMachineDidChangeState()
    if !unstarted { Inspection.recordReset(self, exited: active.reversed(), entered: [], model) }
    _ = RunLoop.endRun(self, model, event: -1)
    if let failure { throw .callbackFailed(event: "", transitionHappened: true, underlying: failure) }
  }

  /// Fires `event` after the current run to completion (the external queue, S13); outside a
  /// step, fires it now.
  @discardableResult
  public func post(_ event: String, payload: (any Sendable)? = nil, on model: Model) -> Bool {
    guard let index = eventIndex(event) else {
      _ = rejectUnknown(event, model, source: .post, payload: payload)
      return false
    }
    return RunLoop.runToCompletion(self, index, payload, model, external: true, source: .post).happened
  }

  /// Fires `event` on `model` after `delay` on the definition's clock (SCXML `<send delay>`):
  /// as a timeout, it needs a class isolated to a global actor or declaring `Sendable`. With an
  /// `id`, ``cancelPost(id:on:)`` cancels it until it fires (SCXML `<send id>`, `<cancel>`).
  public func post(
    _ event: String, payload: (any Sendable)? = nil, after delay: Duration, id: String? = nil, on model: Model
  ) {
    guard let index = eventIndex(event) else {
      _ = rejectUnknown(event, model, source: .post, payload: payload)
      return
    }
    let actor = model._$stateMachineActor
    guard model._$stateMachineLock != nil || actor != nil else {
      trace("post('\(event)', after:) ignored: the class must be isolated to a global actor or declare Sendable")
      return
    }
    // Neither the object nor the definition is kept alive by a pending event: the clock holds
    // this closure, and the definition holds the clock (a cycle until the delay passes, forever
    // on a `ManualClock` that is never advanced, as the fuzzer's leak check found).
    let delivery = TriggerDelivery(actor: actor) { [weak self, weak model] event, _ in
      guard let self, let model else { return }
      _ = RunLoop.runToCompletion(self, event, payload, model, external: true, source: .post)
    }
    guard let id else {
      _ = compiled.scheduler.schedule(after: delay) { await delivery.deliver(index) }
      return
    }
    compiled.delayedSends.schedule(delay, id: id, object: model, on: compiled.scheduler) { await delivery.deliver(index) }
  }

  /// Cancels every event posted to `model` with ``post(_:payload:after:id:on:)`` under `id`
  /// that has not fired yet (SCXML `<cancel sendid>`); does nothing if there is none.
  public func cancelPost(id: String, on model: Model) {
    compiled.delayedSends.cancel(id, object: model, on: compiled.scheduler)
  }
}
