// The definition's side of persistence: loading a stored row into an object (P12) and running
// one step on it in the store-step mode (`StoreStepRecorder`), so that a store can write the
// step in one transaction and run its `after` callbacks after the commit (P1, P5, P8).

extension StateMachineDefinition {
  /// The machine columns of `model`: its state string, the version it was loaded at (plus the
  /// microsteps of store steps since; 0 for an object no store loaded), termination and history.
  public func storedState(of model: Model) -> StoredMachineState {
    locked(model) {
      let storage = model._$stateMachineStorage
      let encoded = encodedState(of: storage)
      return StoredMachineState(
        state: encoded.state, version: storage.extras?.storeVersion ?? 0, isTerminated: storage.isTerminated,
        history: encoded.history)
    }
  }

  /// Puts `model` into a stored row's machine columns, running no callback and arming no timer
  /// (the row's deadlines are in the store already, P8). Replaces the object's machine storage,
  /// keeping only the store it is bound to: call it on a freshly made object, before anyone else
  /// uses it, or on a bound object to make it hold a row's committed columns.
  ///
  /// - Throws: ``StateMachineStoreError/unknownStoredState(id:state:)`` when the state or a
  ///   history record is not in the definition (P12); `id` names the row in that error. The object
  ///   is then unchanged.
  public func load(_ stored: StoredMachineState, into model: Model, id: String) throws(StateMachineStoreError) {
    var storage: StateMachineStorage
    do {
      storage = try decodedStorage(state: stored.state, history: stored.history, terminated: stored.isTerminated)
    } catch {
      throw .unknownStoredState(id: id, state: stored.state)
    }
    storage.set(StateMachineStorage.unstartedFlag | StateMachineStorage.restoredFlag, false)
    let extras = storage.extras ?? StateMachineExtras()
    extras.storeVersion = stored.version
    storage.extras = extras
    storage.set(StateMachineStorage.extrasFlag, true)
    locked(model) {
      let managed = model._$stateMachineStorage.slowPathFlags & StateMachineStorage.storeManagedFlag
      storage.slowPathFlags |= managed
      extras.storeBinding = model._$stateMachineStorage.extras?.storeBinding
      model._$stateMachineStorage = storage
    }
  }

  /// Runs `event` as one run-to-completion step on `model`, an object a store has just loaded
  /// (``load(_:into:id:)``), and says what to write (P1).
  ///
  /// The step runs every callback that belongs inside the transaction (guards, `before`, exit,
  /// actions, entry, eventless and queued steps) and holds back the rest for
  /// ``StoreStep/committed()`` (P5). It arms no timer: the deadlines it armed are in
  /// ``StoreStep/armed`` (P8).
  ///
  /// - Throws: ``StateMachineStoreError/rejected(_:)`` when the machine refuses the event;
  ///   ``StateMachineStoreError/callbackFailed(event:underlying:)`` when a callback of the step
  ///   (or of a step it queued) threw. The object is then in no state to keep: the store discards
  ///   it and writes nothing.
  public func storeStep(_ event: String, payload: (any Sendable)?, on model: Model) throws(StateMachineStoreError)
    -> StoreStep
  {
    let before = storedState(of: model)
    guard let index = eventIndex(event) else { throw .rejected(rejectUnknown(event, model)) }
    let recorder = attachRecorder(model)
    let outcome = RunLoop.runToCompletion(self, index, payload, model)
    detachRecorder(model)
    switch outcome {
    case .accepted: break
    case .rejected(let error): throw .rejected(error)
    case .queued: throw .rejected(.busy("a store step on an object that is running a step"))
    case .failed(let error, _): throw .callbackFailed(event: event, underlying: error)
    }
    return try finish(event, before, recorder, model)
  }

  /// Enters a new object's initial state as a store step (its entry actions, eventless
  /// transitions, deadlines), for a store's `insert`: the result is at version 0 with no history
  /// row.
  public func storeStart(on model: Model) throws(StateMachineStoreError) -> StoreStep {
    let before = storedState(of: model)
    let recorder = attachRecorder(model)
    do {
      try RunLoop.start(self, model)
    } catch {
      detachRecorder(model)
      throw .callbackFailed(event: "", underlying: error)
    }
    detachRecorder(model)
    recorder.transitions = []
    return try finish("", before, recorder, model)
  }

  /// Puts a store-loaded object into `state` as a store step (an operator's repair or a
  /// migration, P12): no callback runs, every deadline of the old configuration goes and those of
  /// the new one are armed; one history row.
  ///
  /// - Throws: ``StateMachineStoreError/rejected(_:)`` with ``StateMachineError/unknownState(_:)``
  ///   or ``StateMachineError/illegalConfiguration(_:reason:)``.
  public func storeRestore(_ state: String, on model: Model) throws(StateMachineStoreError) -> StoreStep {
    try storeMigrate(storedState(of: model), to: state, on: model)
  }

  /// Moves a row from its `stored` columns into `state`, as a store step on `model`: an object
  /// loaded from the row, or, for a row the definition cannot load (its state is not in the
  /// definition, P12), an object decoded from the row's own columns whose machine storage was
  /// not loaded. No callback runs, the deadlines of the stored configuration go and the new
  /// configuration's are armed, and one history row goes from the stored state to the new one,
  /// at the stored version + 1.
  ///
  /// - Throws: ``StateMachineStoreError/rejected(_:)`` when `state` is not a configuration of
  ///   the definition.
  public func storeMigrate(_ stored: StoredMachineState, to state: String, on model: Model)
    throws(StateMachineStoreError) -> StoreStep
  {
    let recorder = attachRecorder(model)
    do {
      try restore(state, on: model)
    } catch {
      detachRecorder(model)
      throw .rejected(error)
    }
    detachRecorder(model)
    let to = locked(model) { encodedState(of: model._$stateMachineStorage).state }
    recorder.transitions = [CompletedTransition(from: stored.state, event: "", to: to)]
    return try finish("", stored, recorder, model, exitingAll: true)
  }

  /// The names of the states a stored `state` string makes active: every active state of a
  /// statechart (ancestors and regions included), or the one state of a flat machine. Empty for
  /// a string that is not a configuration of the definition.
  public func activeStates(inStored state: String) -> [String] {
    guard case .statechart(let chart) = compiled.engine else {
      return compiled.stateTable.index(of: state) == nil ? [] : [state]
    }
    guard let active = try? configuration(parsing: state, chart) else { return [] }
    return active.members.map { chart.tree.paths[Int($0)] }
  }

  private func attachRecorder(_ model: Model) -> StoreStepRecorder {
    let recorder = StoreStepRecorder()
    let extras = Triggers.extras(self, of: model)
    locked(model) { extras.storeRecorder = recorder }
    return recorder
  }

  private func detachRecorder(_ model: Model) {
    locked(model) { model._$stateMachineStorage.extras?.storeRecorder = nil }
  }

  /// The step's writes, from the recorder and the object's new machine columns.
  private func finish(
    _ event: String, _ before: StoredMachineState, _ recorder: StoreStepRecorder, _ model: Model,
    exitingAll: Bool = false
  ) throws(StateMachineStoreError) -> StoreStep {
    if let failure = recorder.failure { throw .callbackFailed(event: event, underlying: failure) }
    var after = storedState(of: model)
    after.version = before.version + Int64(recorder.transitions.count)
    locked(model) { model._$stateMachineStorage.extras?.storeVersion = after.version }
    let wasActive = activeStates(inStored: before.state)
    let isActive = after.isTerminated ? [] : activeStates(inStored: after.state)
    let armed = recorder.armed.filter { isActive.contains($0.state) }
    // P8: a deadline row lives while its state stays entered: exited states lose theirs, and a
    // state entered again gets a new one.
    var exited: [String] = []
    for state in wasActive where exitingAll || !isActive.contains(state) { exited.append(state) }
    for timeout in armed where !exited.contains(timeout.state) { exited.append(timeout.state) }
    return StoreStep(
      event: event, before: before, after: after, transitions: recorder.transitions, exited: exited, armed: armed,
      held: HeldBack(recorder.held) { [self] error in trace("'\(event)': a callback after the commit threw: \(error)") })
  }
}
