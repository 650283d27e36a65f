// The flat engine: the step of a machine without hierarchy, Semantics steps 1–9, on a machine this
// thread owns. Its tables are the definition's (`CompiledMachine`: candidate rows, actions,
// callbacks), which the inlined tiers read too; the engine is the code that runs them.

/// The step of a flat machine (Semantics steps 1–9): selection among the candidates of the
/// (state, event) row, the callbacks and actions in Semantics' order around the state's write,
/// and the optional features at their points (`StepFeatures`).
///
/// A namespace of static functions over the definition they run: the definition holds the
/// tables, the engine the procedure, and a call passes the definition as it would pass `self`.
@usableFromInline
enum FlatEngine<Model: StateMachineObject> {
  /// The index in `compiled.candidates` of the first of `candidates` (those of (`from`, `event`))
  /// whose guard passes; `nil` if every guard failed or there is none. Throws what a guard throws.
  /// (An index, not the candidate: a copy of it would retain and release its closures.)
  /// Always inlined, since the optimiser may leave it out of line, a call per candidate
  /// (Benchmarks/README.md, "Candidate selection inlined").
  @inlinable @inline(__always)
  static func selectCandidate(
    _ definition: StateMachineDefinition<Model>, _ event: Int32, from: Int32, in candidates: Range<Int>,
    payload: (any Sendable)?, _ model: Model
  ) throws -> Int? {
    for index in candidates {
      guard let guardBody = definition.compiled.candidates[index].guardBody else { return index }
      let target = definition.compiled.candidates[index].target
      let to = target >= 0 ? target : from
      let passed = try guardBody(model) {
        Transition(definition.transitionNames, event: event, from: from, to: to, payload: payload)
      }
      definition.trace("guard of '\(definition.eventName(event))' to '\(definition.stateName(to))': \(passed)")
      if passed { return index }
    }
    return nil
  }

  /// Semantics steps 1–9 for a flat machine.
  @inlinable
  static func step(
    _ definition: StateMachineDefinition<Model>, _ event: Int32, _ payload: (any Sendable)?, _ model: Model
  ) -> StepOutcome {
    step(definition, event, payload, model, noting: false)
  }

  /// The flat step of an inspected run: it notes its transition in the run's capture. Only
  /// inspected objects run it, so it is not inlinable, and the step of the others does not keep
  /// the selected candidate for it (Benchmarks/README.md, "Noted step out of line").
  @usableFromInline @inline(never)
  static func notedStep(
    _ definition: StateMachineDefinition<Model>, _ event: Int32, _ payload: (any Sendable)?, _ model: Model
  ) -> StepOutcome {
    step(definition, event, payload, model, noting: true)
  }

  /// The body of ``step(_:_:_:_:)`` and ``notedStep(_:_:_:_:)``.
  @inlinable @inline(__always)
  static func step(
    _ definition: StateMachineDefinition<Model>, _ event: Int32, _ payload: (any Sendable)?, _ model: Model,
    noting: Bool
  ) -> StepOutcome {
    let (from, terminated) = definition.locked(model) {
      (model._$stateMachineStorage.stateIndex, model._$stateMachineStorage.isTerminated)
    }
    // The names are looked up only for the log and for errors (a String copy is a retain).
    definition.trace("event '\(definition.eventName(event))' in state '\(definition.stateName(from))'")
    // 1. A terminated machine rejects everything.
    if definition.definitionError != nil { return definition.rejectedByDefinition() }
    if terminated {
      return definition.rejected(.terminated(event: definition.eventName(event), state: definition.stateName(from)))
    }
    // 2. Select the transition.
    let candidates = definition.compiled.candidateRows.range(state: from, event: event)
    if candidates.isEmpty {
      return definition.rejected(.noTransition(event: definition.eventName(event), state: definition.stateName(from)))
    }
    let selected: Int
    do {
      guard let index = try selectCandidate(definition, event, from: from, in: candidates, payload: payload, model)
      else {
        return definition.rejected(.guardsFailed(event: definition.eventName(event), state: definition.stateName(from)))
      }
      selected = index
    } catch {
      return definition.failed(definition.eventName(event), transitionHappened: false, error)
    }
    // One Transition for the whole step, handed to every callback as it is: without a payload,
    // the candidate's, built with the definition and borrowed, else one built here: a reference
    // to the definition's names, three indices and the payload (no string copied).
    if payload == nil, let prebuilt = definition.stepTransitions.byCandidate[selected] {
      return prebuilt._withUnsafeGuaranteedRef {
        transitionStep(definition, event, payload, model, from: from, selected, $0.transition, noting: noting)
      }
    }
    let target = definition.compiled.candidates[selected].target
    let to = target >= 0 ? target : from
    // (Without a payload, a `nil` of its own: copying the optional existential is a generic call.)
    let transition =
      payload == nil
      ? Transition(definition.transitionNames, event: event, from: from, to: to)
      : Transition(definition.transitionNames, event: event, from: from, to: to, payload: payload)
    return transitionStep(definition, event, payload, model, from: from, selected, transition, noting: noting)
  }

  /// Steps 3–9 of ``step(_:_:_:_:noting:)``: the `selected` candidate's transition from `from`,
  /// described by `transition` (borrowed, never copied by the step). The optimiser keeps it out
  /// of line in the closure that borrows the candidate's `Transition`, which costs less than the
  /// `Transition` it saves; `@_transparent` inlined it there, but copied the `Transition`.
  @inlinable @inline(__always)
  static func transitionStep(
    _ definition: StateMachineDefinition<Model>, _ event: Int32, _ payload: (any Sendable)?, _ model: Model,
    from: Int32, _ selected: Int, _ transition: Transition, noting: Bool
  ) -> StepOutcome {
    let target = definition.compiled.candidates[selected].target
    let to = target >= 0 ? target : from
    let isExternal = !definition.compiled.candidates[selected].isInternal
    let selectedTerminates = definition.compiled.candidates[selected].terminates
    // 3.–5. before callbacks, exit actions, the transition's action: a throw changes nothing.
    let features = StepFeatures(definition, model)
    let callbacks = definition.stepCallbacks[Int(event)]
    do {
      try callbacks._withUnsafeGuaranteedRef { try StepActions.callStepCallbacks(definition, $0.before, model, transition) }
      if !selectedTerminates {
        features.exiting(
          isExternal ? .exit : .internalTransition, from, event: event, payload: payload, definition, model)
      }
      if isExternal {
        if !definition.compiled.exitActions[Int(from)].isEmpty {
          definition.trace("exit '\(definition.stateName(from))'")
        }
        // Not `runExitActions`: its closure would copy the borrowed `Transition` for a callback
        // that takes it (Benchmarks/README.md, "Exit actions in the step").
        for action in definition.compiled.exitActions[Int(from)] { try action(model, transition) }
      }
      try definition.compiled.candidates[selected].action?(model, transition)
    } catch {
      return definition.failed(definition.eventName(event), transitionHappened: false, error)
    }
    // 6. The state is written; the old state's triggers are disarmed, the new one's armed.
    let terminates = selectedTerminates || definition.compiled.isFinal[Int(to)]
    definition.write(to, model, terminating: terminates)
    definition.trace(
      "transition '\(definition.stateName(from))' -> '\(definition.stateName(to))' on '\(definition.eventName(event))'")
    let extras = definition.locked(model) { model._$stateMachineStorage.extras }
    features.transitioned(
      extras,
      {
        CompletedTransition(
          from: definition.stateName(from), event: definition.eventName(event), to: definition.stateName(to),
          payload: payload)
      })
    if noting {
      features.noted(extras) { Inspection.noteFlat(definition, selected, from: from, to: to, external: isExternal, $0) }
    }
    features.disarmed(extras, all: isExternal || terminates, definition, model)
    if isExternal && !terminates { features.armed(to, event: event, payload: payload, definition, model) }
    // 7.–8. entry actions, after callbacks: a throw skips the rest but the state stands.
    var failure: (any Error)?
    do {
      if isExternal {
        features.entering(to, event: event, payload: payload, definition, model)
        // Checked here: the call costs more than the check when the state has no entry actions.
        if !definition.compiled.entryActions[Int(to)].isEmpty {
          try StepActions.runEntryActions(definition, of: to, model) { transition }
        }
      }
      // Without a store step, the boxed callbacks; in one, they are held back (P5).
      if extras?.storeRecorder == nil {
        try callbacks._withUnsafeGuaranteedRef { try StepActions.callStepCallbacks(definition, $0.after, model, transition) }
      } else {
        try StepActions.runAfterCallbacks(definition, event, model, extras) { transition }
      }
    } catch {
      failure = error
    }
    features.ended(
      extras, transition: { transition },
      completed: {
        CompletedTransition(
          from: definition.stateName(from), event: definition.eventName(event), to: definition.stateName(to),
          payload: payload)
      }, definition, model)
    if let failure { return definition.failed(definition.eventName(event), transitionHappened: true, failure) }
    return .accepted
  }

  /// Enters a flat machine's `state`: arms its triggers, then runs its entry actions (not for a
  /// `restored` state).
  static func enter(
    _ definition: StateMachineDefinition<Model>, _ state: Int32, _ model: Model, restored: Bool
  ) -> StepOutcome {
    definition.trace("start in '\(definition.stateName(state))'")
    if !restored, let capture = definition.locked(model, { model._$stateMachineStorage.extras?.capture }) {
      capture.noteMicrostep(exits: [], entries: [state], transitions: [])
    }
    Triggers.arm(definition, state, model, entering: restored ? .restore : .start)
    if restored { return .accepted }
    let transition = Transition(event: "", from: definition.stateName(state), to: definition.stateName(state))
    if StateAnnouncements.announces(definition, model) { StateAnnouncements.announce(definition, .entry, state, event: -1, payload: nil, model) }
    do {
      try StepActions.runEntryActions(definition, of: state, model) { transition }
    } catch {
      return definition.failed("", transitionHappened: true, error)
    }
    return .accepted
  }
}
