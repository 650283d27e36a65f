// The step of a flat machine: Semantics steps 1–9, on a machine this thread owns.

extension StateMachineDefinition {
  /// The index in `compiled.candidates` of the first of `candidates` (those of (`from`, `event`))
  /// whose guard passes; `nil` if every guard failed or there is none. Throws what a guard throws.
  /// (An index, not the candidate: a copy of it would retain and release its closures.)
  /// Always inlined, since the optimiser may leave it out of line, a call per candidate
  /// (Benchmarks/README.md, "Candidate selection inlined").
  @inlinable @inline(__always)
  func selectCandidate(
    _ event: Int32, from: Int32, in candidates: Range<Int>, payload: (any Sendable)?, _ model: Model
  ) throws -> Int? {
    for index in candidates {
      guard let guardBody = compiled.candidates[index].guardBody else { return index }
      let target = compiled.candidates[index].target
      let to = target >= 0 ? target : from
      let passed = try guardBody(model) { Transition(transitionNames, event: event, from: from, to: to, payload: payload) }
      trace("guard of '\(eventName(event))' to '\(stateName(to))': \(passed)")
      if passed { return index }
    }
    return nil
  }

  /// The step of the definition's engine, without the clean-up of ``step(_:_:_:noting:)``: a
  /// statechart's planned step where one was planned for the configuration, else its full step
  /// (the Hierarchy article), or the flat step. Inlined into the step, so that the outcome is not
  /// copied out of a call, and the chart read unretained, so that a step neither retains nor
  /// releases it (Benchmarks/README.md, "Engine step inlined").
  @inlinable @inline(__always)
  func engineStep(_ event: Int32, _ payload: (any Sendable)?, _ model: Model) -> StepOutcome {
    guard let unretainedChart = compiled.unretainedChart else { return flatStep(event, payload, model) }
    return unretainedChart._withUnsafeGuaranteedRef { chart in
      // (Not for an inspected run: it takes the full step, see `step(_:_:_:noting:)`.)
      let start = locked(model) { PlannedStart(model, chart, postsStateNotifications: compiled.postsStateNotifications) }
      if var plan = chart.plans.plan(event: event, from: start.number) {
        // A slot that enters through a history takes the candidates of what it recorded (S15).
        if chart.plans.entersHistory, let entered = chart.plans.historyEntered(by: plan) {
          let record = locked(model) { start.extras?.chart?.history[entered.target] }
          guard let resolved = chart.plans.resolved(plan, entered, record: record) else {
            return chartStep(chart, event, payload, model)
          }
          plan = resolved
        }
        return plannedStep(chart, plan, start, event, payload, model)
      }
      return chartStep(chart, event, payload, model)
    }
  }

  /// The rejection of every event by an invalid definition (out of line: it copies the error).
  @usableFromInline
  func rejectedByDefinition() -> StepOutcome {
    rejected(.invalidDefinition(definitionError!))
  }

  /// Semantics steps 1–9 for a flat machine.
  @inlinable
  func flatStep(_ event: Int32, _ payload: (any Sendable)?, _ model: Model) -> StepOutcome {
    flatStep(event, payload, model, noting: false)
  }

  /// The flat step of an inspected run: it notes its transition in the run's capture. Only
  /// inspected objects run it, so it is not inlinable, and the step of the others does not keep
  /// the selected candidate for it (Benchmarks/README.md, "Noted step out of line").
  @usableFromInline @inline(never)
  func notedFlatStep(_ event: Int32, _ payload: (any Sendable)?, _ model: Model) -> StepOutcome {
    flatStep(event, payload, model, noting: true)
  }

  /// The body of ``flatStep(_:_:_:)`` and ``notedFlatStep(_:_:_:)``.
  @inlinable @inline(__always)
  func flatStep(_ event: Int32, _ payload: (any Sendable)?, _ model: Model, noting: Bool) -> StepOutcome {
    let (from, terminated) = locked(model) {
      (model._$stateMachineStorage.stateIndex, model._$stateMachineStorage.isTerminated)
    }
    // The names are looked up only for the log and for errors (a String copy is a retain).
    trace("event '\(eventName(event))' in state '\(stateName(from))'")
    // 1. A terminated machine rejects everything.
    if definitionError != nil { return rejectedByDefinition() }
    if terminated { return rejected(.terminated(event: eventName(event), state: stateName(from))) }
    // 2. Select the transition.
    let candidates = compiled.candidateRows.range(state: from, event: event)
    if candidates.isEmpty {
      return rejected(.noTransition(event: eventName(event), state: stateName(from)))
    }
    let selected: Int
    do {
      guard let index = try selectCandidate(event, from: from, in: candidates, payload: payload, model) else {
        return rejected(.guardsFailed(event: eventName(event), state: stateName(from)))
      }
      selected = index
    } catch {
      return failed(eventName(event), transitionHappened: false, error)
    }
    // One Transition for the whole step, handed to every callback as it is: without a payload,
    // the candidate's, built with the definition and borrowed, else one built here: a reference
    // to the definition's names, three indices and the payload (no string copied).
    if payload == nil, let prebuilt = stepTransitions.byCandidate[selected] {
      return prebuilt._withUnsafeGuaranteedRef {
        flatTransition(event, payload, model, from: from, selected, $0.transition, noting: noting)
      }
    }
    let target = compiled.candidates[selected].target
    let to = target >= 0 ? target : from
    // (Without a payload, a `nil` of its own: copying the optional existential is a generic call.)
    let transition =
      payload == nil
      ? Transition(transitionNames, event: event, from: from, to: to)
      : Transition(transitionNames, event: event, from: from, to: to, payload: payload)
    return flatTransition(event, payload, model, from: from, selected, transition, noting: noting)
  }

  /// Steps 3–9 of ``flatStep(_:_:_:noting:)``: the `selected` candidate's transition from `from`,
  /// described by `transition` (borrowed, never copied by the step). The optimiser keeps it out
  /// of line in the closure that borrows the candidate's `Transition`, which costs less than the
  /// `Transition` it saves; `@_transparent` inlined it there, but copied the `Transition`.
  @inlinable @inline(__always)
  func flatTransition(
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, from: Int32, _ selected: Int,
    _ transition: Transition, noting: Bool
  ) -> StepOutcome {
    let target = compiled.candidates[selected].target
    let to = target >= 0 ? target : from
    let isExternal = !compiled.candidates[selected].isInternal
    let selectedTerminates = compiled.candidates[selected].terminates
    // 3.–5. before callbacks, exit actions, the transition's action: a throw changes nothing.
    let features = StepFeatures(self, model)
    let callbacks = stepCallbacks[Int(event)]
    do {
      try callbacks._withUnsafeGuaranteedRef { try callStepCallbacks($0.before, model, transition) }
      if !selectedTerminates {
        features.exiting(isExternal ? .exit : .internalTransition, from, event: event, payload: payload, self, model)
      }
      if isExternal {
        if !compiled.exitActions[Int(from)].isEmpty { trace("exit '\(stateName(from))'") }
        // Not `runExitActions`: its closure would copy the borrowed `Transition` for a callback
        // that takes it (Benchmarks/README.md, "Exit actions in the step").
        for action in compiled.exitActions[Int(from)] { try action(model, transition) }
      }
      try compiled.candidates[selected].action?(model, transition)
    } catch {
      return failed(eventName(event), transitionHappened: false, error)
    }
    // 6. The state is written; the old state's triggers are disarmed, the new one's armed.
    let terminates = selectedTerminates || compiled.isFinal[Int(to)]
    write(to, model, terminating: terminates)
    trace("transition '\(stateName(from))' -> '\(stateName(to))' on '\(eventName(event))'")
    let extras = locked(model) { model._$stateMachineStorage.extras }
    features.transitioned(
      extras, { CompletedTransition(from: stateName(from), event: eventName(event), to: stateName(to), payload: payload) },
    ) { capture in
      if noting { self.noteFlat(selected, from: from, to: to, external: isExternal, capture) }
    }
    features.disarmed(extras, all: isExternal || terminates, self, model)
    if isExternal && !terminates { features.armed(to, event: event, payload: payload, self, model) }
    // 7.–8. entry actions, after callbacks: a throw skips the rest but the state stands.
    var failure: (any Error)?
    do {
      if isExternal {
        features.entering(to, event: event, payload: payload, self, model)
        // Checked here: the call costs more than the check when the state has no entry actions.
        if !compiled.entryActions[Int(to)].isEmpty { try runEntryActions(of: to, model) { transition } }
      }
      // Without a store step, the boxed callbacks; in one, they are held back (P5).
      if extras?.storeRecorder == nil {
        try callbacks._withUnsafeGuaranteedRef { try callStepCallbacks($0.after, model, transition) }
      } else {
        try runAfterCallbacks(event, model, extras) { transition }
      }
    } catch {
      failure = error
    }
    features.ended(
      extras, transition: { transition },
      completed: { CompletedTransition(from: stateName(from), event: eventName(event), to: stateName(to), payload: payload) },
      self, model)
    if let failure { return failed(eventName(event), transitionHappened: true, failure) }
    return .accepted
  }
}
