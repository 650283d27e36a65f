// The definition's side of persistence: loading a stored row into an object (P12) and running
// one step on it in the store-step mode (`StoreStepRecorder`), so that a store can write the
// step in one transaction and run its `after` callbacks after the commit (P1, P5, P8).

extension StateMachineDefinition {
  /// The machine columns of `model`: its state string, the version it was loaded at (plus the
  /// microsteps of store steps since; 0 for an object no store loaded), termination and history.
  public func storedState(of model: Model) -> StoredMachineState {
    locked(model) {
      let storage = model._$stateMachineStorage
      let encoded = StateRestoring.encodedState(self, of: storage)
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
      storage = try StateRestoring.decodedStorage(self, state: stored.state, history: stored.history, terminated: stored.isTerminated)
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
    let recorder = StoreStepRecording.attachRecorder(self, model)
    let outcome = RunLoop.runToCompletion(self, index, payload, model)
    StoreStepRecording.detachRecorder(self, model)
    switch outcome {
    case .accepted: break
    case .rejected(let error): throw .rejected(error)
    case .queued: throw .rejected(.busy("a store step on an object that is running a step"))
    case .failed(let error, _): throw .callbackFailed(event: event, underlying: error)
    }
    return try StoreStepRecording.finish(self, event, before, recorder, model)
  }

  /// Enters a new object's initial state as a store step (its entry actions, eventless
  /// transitions, deadlines), for a store's `insert`: the result is at version 0 with no history
  /// row.
  public func storeStart(on model: Model) throws(StateMachineStoreError) -> StoreStep {
    let before = storedState(of: model)
    let recorder = StoreStepRecording.attachRecorder(self, model)
    do {
      try RunLoop.start(self, model)
    } catch {
      StoreStepRecording.detachRecorder(self, model)
      throw .callbackFailed(event: "", underlying: error)
    }
    StoreStepRecording.detachRecorder(self, model)
    recorder.transitions = []
    return try StoreStepRecording.finish(self, "", before, recorder, model)
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
    let recorder = StoreStepRecording.attachRecorder(self, model)
    do {
      try restore(state, on: model)
    } catch {
      StoreStepRecording.detachRecorder(self, model)
      throw .rejected(error)
    }
    StoreStepRecording.detachRecorder(self, model)
    let to = locked(model) { StateRestoring.encodedState(self, of: model._$stateMachineStorage).state }
    recorder.transitions = [CompletedTransition(from: stored.state, event: "", to: to)]
    return try StoreStepRecording.finish(self, "", stored, recorder, model, exitingAll: true)
  }

  /// The names of the states a stored `state` string makes active: every active state of a
  /// statechart (ancestors and regions included), or the one state of a flat machine. Empty for
  /// a string that is not a configuration of the definition.
  public func activeStates(inStored state: String) -> [String] {
    guard case .statechart(let chart) = compiled.engine else {
      return compiled.stateTable.index(of: state) == nil ? [] : [state]
    }
    guard let active = try? StateRestoring.configuration(self, parsing: state, chart) else { return [] }
    return active.members.map { chart.tree.paths[Int($0)] }
  }
}

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

extension StateMachineDefinition {
  /// Puts `model` into `state` without running callbacks: an explicit reset, which also ends a
  /// termination unless `state` is final. For a statechart `state` names a configuration, as its
  /// `state` string does (the active leaves, comma-separated), and history is kept. The triggers
  /// of the old state are disarmed, those of the new one armed. Observation hooks may fire events: they run to
  /// completion after the state is written.
  ///
  /// - Throws: ``StateMachineError/unknownState(_:)`` or
  ///   ``StateMachineError/illegalConfiguration(_:reason:)``, or ``StateMachineError/busy(_:)``
  ///   when called while the machine runs a step (from one of its callbacks, say). The machine is
  ///   then unchanged.
  public func restore(_ state: String, on model: Model) throws(StateMachineError) {
    // Resolved before anything changes: a bad name leaves the machine as it is.
    switch compiled.engine {
    case .flat:
      guard let index = compiled.stateTable.index(of: state) else { throw .unknownState(state) }
      try StateRestoring.replaceState(self, state, model) { StateRestoring.restoreFlat(self, index, model) }
    case .statechart(let chart):
      let active = try StateRestoring.configuration(self, parsing: state, chart)
      try StateRestoring.replaceState(self, state, model) { StateRestoring.restoreChart(self, active, chart, model) }
    }
  }
}

extension StateMachineDefinition {
  /// Whether a row whose stored state is `stored` is in `state`: the state itself, or, for a
  /// compound or parallel state, any of its descendants (P14). `state` is a name or a path, as
  /// for ``isInState(_:on:)-(String,_)``; `false` when either is not in the definition.
  public func isStored(_ stored: String, in state: String) -> Bool {
    guard case .statechart(let chart) = compiled.engine else {
      return stored == state && compiled.stateTable.index(of: state) != nil
    }
    let index = compiled.stateTable.index(of: state) ?? stateIndex(resolving: state)
    guard index >= 0, let active = try? StateRestoring.configuration(self, parsing: stored, chart) else { return false }
    return active.contains(index)
  }

  /// The events of the timeouts that entering `state` (a name or a path) arms.
  public func timeoutEvents(of state: String) -> [String] {
    let index = compiled.stateTable.index(of: state) ?? stateIndex(resolving: state)
    guard index >= 0, Int(index) < compiled.triggers.count else { return [] }
    return compiled.triggers[Int(index)].filter { $0.timeout != nil }.map { eventName($0.event) }
  }

  /// How rows spell `state` (a name or a path, compared by canonical equivalence): its declared
  /// name in a flat machine, its path in a statechart; `nil` when it is not a state of the
  /// definition. SQL stores match stored strings against it (P14).
  public func storedName(of state: String) -> String? {
    let index = compiled.stateTable.index(of: state) ?? stateIndex(resolving: state)
    guard index >= 0 else { return nil }
    switch compiled.engine {
    case .flat: return compiled.states[Int(index)]
    case .statechart(let chart): return chart.tree.paths[Int(index)]
    }
  }

  /// Whether the definition has an event named `event` (canonical equivalence): a deadline
  /// naming an event it no longer has is parked, never fired (P12).
  public func hasEvent(_ event: String) -> Bool {
    eventIndex(event) != nil
  }

  /// Whether rows store one state name (a flat machine) rather than a configuration of paths.
  package var storesOneName: Bool {
    if case .flat = compiled.engine { return true }
    return false
  }

  /// What `verify()` reports (P12) about a store's rows (id, stored state, terminated), deadlines
  /// and parked messages: every store reads them its own way and judges them here.
  package func report(
    rows: [(key: String, state: String, isTerminated: Bool)], deadlines: [StoredDeadline],
    parkedMessages: [OutboxMessage]
  ) -> StoreReport {
    var report = StoreReport()
    var active: [String: [String]] = [:]
    for row in rows {
      let states = activeStates(inStored: row.state)
      if states.isEmpty {
        report.unknownStates[row.key] = row.state
      } else if !row.isTerminated {
        active[row.key] = states
      }
    }
    for deadline in deadlines.sorted(by: { $0.id < $1.id }) {
      if deadline.isParked { report.parkedDeadlines.append(deadline) }
      guard let state = deadline.state else { continue }
      if !(active[deadline.entityID] ?? []).contains(state) || !timeoutEvents(of: state).contains(deadline.event) {
        report.staleDeadlines.append(deadline)
      }
    }
    for (key, states) in active {
      let missing = states.filter { state in
        timeoutEvents(of: state).contains { event in
          !deadlines.contains { $0.entityID == key && $0.state == state && $0.event == event }
        }
      }
      if !missing.isEmpty { report.missingDeadlines[key] = missing }
    }
    report.parkedMessages = parkedMessages.sorted { $0.id < $1.id }
    return report
  }
}
