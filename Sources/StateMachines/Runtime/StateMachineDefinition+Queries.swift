// The queries: `can`, `isInState`, the current state and the available events. Guards run;
// nothing else does.

extension StateMachineDefinition {
  // MARK: Queries

  /// Enters the current state if the machine has not started yet (its first use).
  @inlinable @inline(__always)
  func startIfNeeded(_ model: Model) {
    if locked(model, { model._$stateMachineStorage.isUnstarted }) { startOnFirstUse(model) }
  }

  @usableFromInline @inline(never)
  func startOnFirstUse(_ model: Model) {
    do { try RunLoop.start(self, model) } catch { trace("start on first use failed: \(error)") }
  }

  /// Whether firing `event` now would take a transition. Guards run; nothing else does. While
  /// the machine is busy with a step on another thread and the caller is itself inside a step,
  /// a guarded transition answers `false` (its guards cannot run meanwhile).
  @inlinable
  public func can(_ event: StateMachineEventID, on model: Model) -> Bool {
    can(event, model, modelChecked: false)
  }

  @inlinable @inline(__always)
  func can(_ event: StateMachineEventID, _ model: Model, modelChecked: Bool) -> Bool {
    // Inline: an object without a lock, started and not terminated, and a slot the table answers.
    if accepts(event, on: model, modelChecked: modelChecked), model._$stateMachineLock == nil,
      model._$stateMachineStorage.slowPathFlags & (StateMachineStorage.unstartedFlag | StateMachineStorage.terminatedFlag) == 0,
      let answer = compiled.fastSlots[Int(event.column) &+ Int(model._$stateMachineStorage.stateIndex)].answerWithoutGuards
    {
      return answer
    }
    return canOutOfLine(event, model, modelChecked: modelChecked)
  }

  /// Everything ``can(_:on:)`` does not answer inline.
  @inlinable @inline(never)
  func canOutOfLine(_ event: StateMachineEventID, _ model: Model, modelChecked: Bool) -> Bool {
    // An ID of another definition, or of a name this one does not know (index -1): no transition.
    guard accepts(event, on: model, modelChecked: modelChecked), event.index >= 0 else { return false }
    startIfNeeded(model)
    let (from, terminated) = locked(model) {
      (model._$stateMachineStorage.stateIndex, model._$stateMachineStorage.isTerminated)
    }
    if terminated { return false }
    if let answer = slot(event.index, from).answerWithoutGuards { return answer }
    return withGuardsEvaluable(model, otherwise: false) { from in canTake(event.index, from: from, model) }
  }

  /// The fast-table value of (`event`, `state`).
  @inlinable
  func slot(_ event: Int32, _ state: Int32) -> TransitionSlot {
    compiled.fastSlots[TransitionSlot.position(event: Int(event), state: Int(state), columnHeight: compiled.columnHeight)]
  }

  /// Runs `body` with the current state where guards may run: on a machine this thread takes for
  /// the moment, or already runs a step of. Guards see a querying flag, so an event they fire on
  /// this machine is ignored and asking changes nothing. `otherwise` when the machine is busy on
  /// another thread and this thread may not wait.
  @usableFromInline
  func withGuardsEvaluable<R>(_ model: Model, otherwise: R, _ body: (Int32) -> R) -> R {
    func evaluate() -> R {
      let (from, wasQuerying) = locked(model) {
        let flags = model._$stateMachineStorage.slowPathFlags
        model._$stateMachineStorage.set(StateMachineStorage.queryingFlag, true)
        return (model._$stateMachineStorage.stateIndex, flags & StateMachineStorage.queryingFlag != 0)
      }
      let result = body(from)
      locked(model) { model._$stateMachineStorage.set(StateMachineStorage.queryingFlag, wasQuerying) }
      return result
    }
    switch RunLoop.admit(self, model, whileBusy: {}) {
    case .taken:
      let result = evaluate()
      _ = RunLoop.endRun(self, model, event: -1)
      return result
    case .busy(let here):
      return here ? evaluate() : otherwise
    }
  }

  /// Whether `event` would take a transition from `from`, running guards.
  @usableFromInline
  func canTake(_ event: Int32, from: Int32, _ model: Model) -> Bool {
    switch compiled.engine {
    case .flat:
      if isTerminated(model) { return false }
      if let answer = slot(event, from).answerWithoutGuards { return answer }
      let candidates = compiled.candidateRows.range(state: from, event: event)
      return (try? FlatEngine.selectCandidate(self, event, from: from, in: candidates, payload: nil, model)) != nil
    case .statechart(let chart):
      return StatechartEngine.chartCanTake(self, chart, event, model)
    }
  }

  /// Whether `model` is in `state`.
  @inlinable
  public func isInState(_ state: StateMachineStateID, on model: Model) -> Bool {
    guard state.definition == compiled.identity else { return false }
    startIfNeeded(model)
    switch compiled.engine {
    case .flat: return locked(model) { model._$stateMachineStorage.stateIndex == state.index }
    case .statechart(let chart): return StatechartEngine.isInChartState(self, state.index, chart, model)
    }
  }

  /// The name of `model`'s current state.
  @inlinable
  public func currentState(of model: Model) -> String {
    startIfNeeded(model)
    switch compiled.engine {
    case .flat: return stateName(locked(model) { model._$stateMachineStorage.stateIndex })
    case .statechart(let chart): return StatechartEngine.chartState(self, of: model, chart)
    }
  }

  /// The events that would take a transition now, in declaration order: one consistent answer,
  /// taken while the machine does not change.
  public func availableEvents(on model: Model) -> [String] {
    startIfNeeded(model)
    let available = withGuardsEvaluable(model, otherwise: nil) { from in
      compiled.events.indices.filter { canTake(Int32($0), from: from, model) }
    }
    if let available { return available.map { compiled.events[$0] } }
    // Busy on another thread: the transitions that need no guard.
    let from = locked(model) { model._$stateMachineStorage.stateIndex }
    return compiled.events.indices.filter { slot(Int32($0), from).answerWithoutGuards == true }
      .map { compiled.events[$0] }
  }

  /// Whether `model`'s machine has terminated.
  public func isTerminated(_ model: Model) -> Bool {
    locked(model) { model._$stateMachineStorage.isTerminated }
  }
}
