// The step over a planned slot (`StepPlans`): the same callbacks in the same order as the
// statechart microstep (S3, S7), but with the transitions, exits and entries worked out when
// compiling, a configuration number for the whole configuration, and no sets or strings built
// beyond the `Transition` itself.

/// What a planned step reads of the object before it starts, in one locked access.
@usableFromInline
struct PlannedStart {
  /// The configuration's number: the leaf (nested), or the parallel shape's number (-1: none).
  @usableFromInline let number: Int32
  @usableFromInline let terminated: Bool
  @usableFromInline let extras: StateMachineExtras?
  /// Whether entries, exits and internal transitions are announced (notifications or path
  /// subscriptions).
  @usableFromInline let announces: Bool
  /// Whether a transition stream was ever made for the object.
  @usableFromInline let streams: Bool

  /// Reads `model`'s storage; call under its lock.
  @inlinable @inline(__always)
  init<Model: StateMachineObject>(_ model: Model, _ chart: Statechart<Model>, postsStateNotifications: Bool) {
    let extras = model._$stateMachineStorage.extras
    number = chart.isNested ? model._$stateMachineStorage.stateIndex : extras?.chart?.number ?? -1
    terminated = model._$stateMachineStorage.isTerminated
    self.extras = extras
    announces = postsStateNotifications || extras?.hasSubscriptions ?? false
    streams = extras?.mayHaveStreams ?? false
  }
}

extension StatechartEngine {
  /// One event on a statechart this thread owns, for a slot with a plan. Inlinable, so that it
  /// is specialised for the model's class like the flat step.
  @inlinable
  static func plannedStep(
    _ definition: StateMachineDefinition<Model>,
    _ chart: Statechart<Model>, _ plan: Range<Int>, _ start: PlannedStart, _ event: Int32, _ payload: (any Sendable)?,
    _ model: Model
  ) -> StepOutcome {
    let from = start.number
    // The event's name is looked up only for the log and for errors (a String copy is a retain).
    if definition.definitionError != nil { return definition.rejectedByDefinition() }
    if start.terminated {
      return definition.rejected(
        .terminated(event: definition.eventName(event), state: configurationString(definition, chart, from)))
    }
    func names(_ index: Int32, to next: Int32) -> TransitionNames {
      TransitionNames(
        event: definition.eventName(event), from: configurationString(definition, chart, from),
        to: configurationString(definition, chart, next),
        source: chart.transitions[Int(index)].sourcePath, targets: chart.transitions[Int(index)].targetPaths,
        kind: chart.transitions[Int(index)].kind)
    }
    func transition(_ index: Int32, to next: Int32) -> Transition {
      Transition(names(index, to: next), event: -1, from: -1, to: -1, payload: payload)
    }
    // The plans' pool, read in place: a local copy of the array is a retain and a release per
    // step (Benchmarks/README.md, "Arrays read in place").
    func pool(_ position: Int) -> Int32 { chart.plans.pool[position] }
    // Selection (S4): the first candidate whose guards pass.
    var chosenIndex = -1
    do {
      candidates: for index in plan {
        let candidate = chart.plans.candidates[index]
        if !candidate.isGuarded {
          chosenIndex = index
          break
        }
        for position in Int(candidate.transitions.start)..<Int(candidate.transitions.end) {
          let declared = pool(position)
          guard let guardBody = chart.transitions[Int(declared)].guardBody else { continue }
          let passed = try guardBody(model) { transition(declared, to: candidate.next) }
          definition.trace(
            "guard of '\(definition.eventName(event))' to '\(configurationString(definition, chart, candidate.next))': \(passed)"
          )
          if !passed { continue candidates }
        }
        chosenIndex = index
        break
      }
    } catch {
      return definition.failed(definition.eventName(event), transitionHappened: false, error)
    }
    guard chosenIndex >= 0 else {
      return definition.rejected(
        .guardsFailed(event: definition.eventName(event), state: configurationString(definition, chart, from)))
    }
    let chosen = chart.plans.candidates[chosenIndex]
    let first = pool(Int(chosen.transitions.start))
    // Built once if a callback takes it, else only if asked for (as in the flat step). Its
    // names are kept, not the `Transition`: destroying even a `nil` `Transition?` goes through
    // generic value witnesses (Benchmarks/README.md, "Optional existentials not made per call").
    let built: TransitionNames? = definition.compiled.takesTransition ? names(first, to: chosen.next) : nil
    func context() -> Transition {
      Transition(built ?? names(first, to: chosen.next), event: -1, from: -1, to: -1, payload: payload)
    }
    let announces = start.announces
    let features = StepFeatures<Model>(announces: announces)
    // before callbacks, exits (children first), the transitions' actions: a throw changes nothing.
    do {
      for callback in definition.compiled.beforeCallbacks[Int(event)] { try callback(model, context) }
      let exits = announces ? chosen.exits : chosen.exitsWithCode
      for position in Int(exits.start)..<Int(exits.end) {
        let state = pool(position)
        features.exiting(.exit, state, event: event, payload: payload, definition, model)
        try StepActions.runExitActions(definition, of: state, model, context)
      }
      // Unannounced, only the transitions with an action: the others have nothing to run.
      let transitions = announces ? chosen.transitions : chosen.transitionsWithCode
      for position in Int(transitions.start)..<Int(transitions.end) {
        let index = pool(position)
        if announces && chart.transitions[Int(index)].kind == .internal && chart.transitions[Int(index)].source >= 0 {
          features.exiting(
            .internalTransition, chart.transitions[Int(index)].source, event: event, payload: payload, definition, model
          )
        }
        if let action = chart.transitions[Int(index)].action {
          if index == first {
            try action(model, context)
          } else {
            try action(model) { transition(index, to: chosen.next) }
          }
        }
      }
    } catch {
      return definition.failed(definition.eventName(event), transitionHappened: false, error)
    }
    writePlanned(definition, chart, chosen, start.extras, model)
    definition.trace(
      "'\(configurationString(definition, chart, from))' -> '\(configurationString(definition, chart, chosen.next))' on '\(definition.eventName(event))'"
    )
    // A planned step is never inspected (an inspected run takes the full step), so it notes
    // nothing. Only triggers arm anything per state (S18): an object without extras at the start
    // has none armed.
    features.transitioned(
      start.extras,
      {
        CompletedTransition(
          from: configurationString(definition, chart, from), event: definition.eventName(event),
          to: configurationString(definition, chart, chosen.next),
          payload: payload)
      })
    if chart.hasTriggers, !chosen.exits.isEmpty, start.extras != nil {
      var exited = StateSet(capacity: chart.count)
      for state in chart.plans.members(chosen.exits) { exited.insert(state) }
      features.disarmed(start.extras, exited: exited)
    }
    // Entries (parents first) with their initial actions, then after callbacks and observers.
    var failure: (any Error)?
    let entries = announces ? chosen.entries : chosen.entriesWithCode
    for position in Int(entries.start)..<Int(entries.end) {
      let state = pool(position)
      features.entering(state, event: event, payload: payload, definition, model)
      if failure == nil {
        do {
          try StepActions.runEntryActions(definition, of: state, model, context)
          if chart.plans.contains(chosen.defaultEntries, state), let action = chart.initialActions[Int(state)] {
            try action(model, context)
          }
        } catch {
          failure = error
        }
      }
      if chart.hasTriggers { features.armed(state, event: event, payload: payload, definition, model) }
    }
    do {
      try StepActions.runAfterCallbacks(definition, event, model, start.extras, context)
    } catch {
      if failure == nil { failure = error }
    }
    features.ended(
      start.extras, streamsMayListen: start.streams, transition: context,
      completed: {
        CompletedTransition(
          from: configurationString(definition, chart, from), event: definition.eventName(event),
          to: configurationString(definition, chart, chosen.next),
          payload: payload)
      }, definition, model)
    if let failure { return definition.failed(definition.eventName(event), transitionHappened: true, failure) }
    return .accepted
  }

  /// The `state` string of configuration `number`: a leaf's path (nested), or the parallel
  /// shape's numbered configuration.
  @inlinable
  static func configurationString(
    _ definition: StateMachineDefinition<Model>, _ chart: Statechart<Model>, _ number: Int32
  ) -> String {
    chart.isNested
      ? definition.compiled.states[Int(number)]
      : stateString(definition, chart.plans.configurations[Int(number)], chart)
  }

  /// Writes the configuration a planned step ends in. The nested shape keeps only its leaf,
  /// unless history or triggers need the record; the parallel shape writes the numbered set.
  /// Entry serials follow the exits and entries when triggers read them (S18).
  @inlinable @inline(__always)
  static func writePlanned(
    _ definition: StateMachineDefinition<Model>,
    _ chart: Statechart<Model>, _ chosen: StepPlans.PlannedCandidate, _ known: StateMachineExtras?, _ model: Model
  ) {
    if chart.isNested && !chart.nestedNeedsRecord {
      definition.write(chosen.next, model)
      return
    }
    let extras = known ?? Triggers.extras(definition, of: model)
    let next = chosen.next
    let active = chart.isNested ? chart.activeStates(leaf: next) : chart.plans.configurations[Int(next)]
    let leaf = chart.isNested ? next : chart.plans.firstLeaves[Int(next)]
    model._$stateMachineWillChangeState()
    definition.locked(model) {
      // Changed in place: copying the record out and back would copy its dictionaries.
      if extras.chart == nil { extras.chart = ChartConfiguration(capacity: chart.count) }
      extras.chart!.active = active
      if !chart.isNested { extras.chart!.number = next }
      if chosen.historyPlan >= 0 {
        // What the exits record (S15), by assignment of arrays built when compiling.
        let records = chart.plans.historyPlans[Int(chosen.historyPlan)].records
        var position = Int(records.start)
        while position < Int(records.end) {
          extras.chart!.history[chart.plans.pool[position]] = chart.plans.records[Int(chart.plans.pool[position + 1])]
          position &+= 2
        }
      }
      if chart.hasTriggers {
        for state in chart.plans.members(chosen.exits) { extras.chart!.entrySerial[state] = nil }
        for state in chart.plans.members(chosen.entries) {
          extras.chart!.serial &+= 1
          extras.chart!.entrySerial[state] = extras.chart!.serial
        }
      }
      model._$stateMachineStorage.stateIndex = leaf
    }
    model._$stateMachineDidChangeState()
  }
}
