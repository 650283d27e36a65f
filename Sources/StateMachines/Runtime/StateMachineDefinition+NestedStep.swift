// The step of a nested statechart (no parallel states) over a planned slot (`NestedPlans`): the
// same callbacks in the same order as the statechart microstep (S3, S7), but with the exit and
// entry lists worked out when compiling, the leaf as the whole configuration, and no sets or
// strings built beyond the `Transition` itself.

extension StateMachineDefinition {
  /// One event on a nested machine this thread owns, for a slot with a plan. Inlinable, so that
  /// it is specialised for the model's class like the flat step.
  @inlinable
  func nestedStep(
    _ chart: Statechart<Model>, _ plan: ArraySlice<NestedPlans.Candidate>, _ event: Int32, _ payload: (any Sendable)?,
    _ model: Model
  ) -> StepOutcome {
    let (from, terminated) = locked(model) {
      (model._$stateMachineStorage.stateIndex, model._$stateMachineStorage.isTerminated)
    }
    let eventName = compiled.events[Int(event)]
    func fromPath() -> String { compiled.states[Int(from)] }
    if let definitionError { return rejected(.invalidDefinition(definitionError)) }
    if terminated { return rejected(.terminated(event: eventName, state: fromPath())) }
    func transition(_ candidate: NestedPlans.Candidate) -> Transition {
      let index = Int(candidate.transition)
      return Transition(
        event: eventName, from: fromPath(), to: compiled.states[Int(candidate.leaf)], payload: payload,
        source: chart.transitions[index].sourcePath, targets: chart.transitions[index].targetPaths,
        kind: chart.transitions[index].kind)
    }
    // Selection (S4): the first candidate whose guard passes.
    var chosen: NestedPlans.Candidate?
    do {
      for candidate in plan {
        if let guardBody = chart.transitions[Int(candidate.transition)].guardBody {
          let passed = try guardBody(model) { transition(candidate) }
          trace("guard of '\(eventName)' to '\(compiled.states[Int(candidate.leaf)])': \(passed)")
          if !passed { continue }
        }
        chosen = candidate
        break
      }
    } catch {
      return failed(eventName, transitionHappened: false, error)
    }
    guard let chosen else { return rejected(.guardsFailed(event: eventName, state: fromPath())) }
    let chosenIndex = Int(chosen.transition)
    // Built once if a callback takes it, else never (as in the flat step).
    let built: Transition? = compiled.takesTransition ? transition(chosen) : nil
    func context() -> Transition { built ?? transition(chosen) }
    let announces = announces(model)
    // before callbacks, exits (children first), the transition's action: a throw changes nothing.
    do {
      for callback in compiled.beforeCallbacks[Int(event)] { try callback(model, context) }
      for state in announces ? chosen.exits : chosen.exitsWithCode {
        if announces { announce(.exit, state, event: event, payload: payload, model) }
        for action in compiled.exitActions[Int(state)] { try action(model, context) }
      }
      if announces && chart.transitions[chosenIndex].targets.isEmpty && chart.transitions[chosenIndex].source >= 0 {
        announce(.internalTransition, chart.transitions[chosenIndex].source, event: event, payload: payload, model)
      }
      try chart.transitions[chosenIndex].action?(model, context)
    } catch {
      return failed(eventName, transitionHappened: false, error)
    }
    // The leaf is written; exited states' triggers are disarmed.
    if chart.nestedNeedsRecord {
      writeNestedRecord(chart, chosen, model)
    } else {
      write(chosen.leaf, model)
    }
    trace("'\(fromPath())' -> '\(compiled.states[Int(chosen.leaf)])' on '\(eventName)'")
    if !chosen.exits.isEmpty, let extras = locked(model, { model._$stateMachineStorage.extras }) {
      var exited = StateSet(capacity: chart.count)
      for state in chosen.exits { exited.insert(state) }
      extras.disarm(exited)
    }
    // Entries (parents first) with their initial actions, then after callbacks and observers.
    var failure: (any Error)?
    for state in announces ? chosen.entries : chosen.entriesWithCode {
      if announces { announce(.entry, state, event: event, payload: payload, model) }
      if failure == nil {
        do {
          for action in compiled.entryActions[Int(state)] {
            if let next = try action(model, context) { try enqueue(next, model) }
          }
          if chosen.defaultEntries.contains(state), let action = chart.initialActions[Int(state)] {
            try action(model, context)
          }
        } catch {
          failure = error
        }
      }
      armIfNeeded(state, model)
    }
    do {
      for callback in compiled.afterCallbacks[Int(event)] { try callback(model, context) }
    } catch {
      if failure == nil { failure = error }
    }
    for observer in compiled.observers { observer(model, context()) }
    if let extras = locked(model, { model._$stateMachineStorage.extras }), extras.hasStreams {
      publish(
        CompletedTransition(from: fromPath(), event: eventName, to: compiled.states[Int(chosen.leaf)], payload: payload),
        to: extras)
    }
    if let failure { return failed(eventName, transitionHappened: true, failure) }
    return .accepted
  }

  /// Writes the leaf of a nested machine that keeps a record (history or triggers): the record's
  /// entry serials follow the exits and entries.
  @usableFromInline
  func writeNestedRecord(_ chart: Statechart<Model>, _ chosen: NestedPlans.Candidate, _ model: Model) {
    var record = chartConfiguration(model, chart)
    for state in chosen.exits {
      record.active.remove(state)
      record.entrySerial[state] = nil
    }
    for state in chosen.entries {
      record.active.insert(state)
      record.serial &+= 1
      record.entrySerial[state] = record.serial
    }
    writeChart(record, chart, terminated: false, model)
  }
}
