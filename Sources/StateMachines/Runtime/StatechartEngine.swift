// The statechart step: W3C SCXML Appendix D on indices (Hierarchy §2), one function per
// procedure of the Recommendation (`selectTransitions`, `removeConflictingTransitions`,
// `computeExitSet`, `computeEntrySet`, `microstep`, the macrostep), with the rule each
// implements. Document order is index order, so sorting is never needed.

import Foundation

/// The step of a hierarchical machine (the Hierarchy article): selection, exit and entry sets,
/// history, the microstep and the macrostep with its eventless transitions, and the planned step
/// over a slot worked out when compiling (`StepPlans`). Its tables are the chart's
/// (`Statechart`); an object's configuration lives in its `StateMachineExtras`.
///
/// A namespace of static functions over the definition they run, as `FlatEngine` is.
@usableFromInline
enum StatechartEngine<Model: StateMachineObject> {
  @usableFromInline typealias SelectedTransition = Statechart<Model>.SelectedTransition

  // MARK: Reading and writing the configuration

  /// The object's configuration (empty before the machine starts).
  @inlinable
  static func chartConfiguration(
    _ definition: StateMachineDefinition<Model>, _ model: Model, _ chart: Statechart<Model>
  ) -> ChartConfiguration {
    guard chart.isNested else {
      return definition.locked(model) { model._$stateMachineStorage.extras?.chart }
        ?? ChartConfiguration(capacity: chart.count)
    }
    // The nested shape: the active states are the leaf in the state index and its ancestors.
    let (leaf, record, unstarted) = definition.locked(model) {
      (
        model._$stateMachineStorage.stateIndex, model._$stateMachineStorage.extras?.chart,
        model._$stateMachineStorage.isUnstarted
      )
    }
    var configuration = record ?? ChartConfiguration(capacity: chart.count)
    configuration.active = unstarted ? StateSet(capacity: chart.count) : chart.activeStates(leaf: leaf)
    return configuration
  }

  /// The `state` string of a configuration: the active leaves' paths in document order, joined
  /// by `,` (§3).
  @inlinable
  static func stateString(_ definition: StateMachineDefinition<Model>, _ active: StateSet, _ chart: Statechart<Model>)
    -> String
  {
    active.filter { chart.isAtomic($0) }.map { chart.tree.paths[Int($0)] }.joined(separator: ",")
  }

  /// Writes a configuration, the first active leaf as the state index, and termination, telling
  /// Observation.
  @inlinable
  static func writeChart(
    _ definition: StateMachineDefinition<Model>, _ configuration: ChartConfiguration, _ chart: Statechart<Model>,
    terminated: Bool, _ model: Model
  ) {
    // The nested shape keeps a record in the extras only when history or triggers need one, so
    // that its fast tier stays open.
    let extras: StateMachineExtras? = chart.isNested && !chart.nestedNeedsRecord ? nil : Triggers.extras(definition, of: model)
    let leaf = configuration.active.first { chart.isAtomic($0) } ?? 0
    var configuration = configuration
    // A parallel configuration's number lets the next event take its planned slot.
    if !chart.isNested && configuration.number < 0 && !chart.plans.configurations.isEmpty {
      configuration.number = chart.plans.numbers[configuration.active] ?? -1
    }
    model._$stateMachineWillChangeState()
    definition.locked(model) {
      extras?.chart = configuration
      model._$stateMachineStorage.stateIndex = leaf
      if terminated { model._$stateMachineStorage.isTerminated = true }
    }
    model._$stateMachineDidChangeState()
  }

  /// Whether `state` (or, being compound, one of its descendants) is active.
  @inlinable
  static func isInChartState(
    _ definition: StateMachineDefinition<Model>, _ state: Int32, _ chart: Statechart<Model>, _ model: Model
  ) -> Bool {
    if chart.isNested {
      guard state >= 0, Int(state) < chart.count else { return false }
      let leaf = definition.locked(model) { model._$stateMachineStorage.stateIndex }
      return state <= leaf && leaf <= chart.tree.lastDescendant[Int(state)]
    }
    return definition.locked(model) { model._$stateMachineStorage.extras?.chart?.active.contains(state) } ?? false
  }

  /// The `state` string of `model`'s statechart.
  @inlinable
  static func chartState(_ definition: StateMachineDefinition<Model>, of model: Model, _ chart: Statechart<Model>)
    -> String
  {
    stateString(definition, chartConfiguration(definition, model, chart).active, chart)
  }

  // MARK: Start (S2)

  /// Enters the initial configuration (the entry set of a transition from the root to the
  /// initial states), then takes eventless transitions; a restored configuration only arms its
  /// triggers.
  @inlinable
  static func enterChart(
    _ definition: StateMachineDefinition<Model>, _ chart: Statechart<Model>, _ model: Model, restored: Bool
  ) -> StepOutcome {
    if restored {
      let configuration = chartConfiguration(definition, model, chart)
      for state in configuration.active { Triggers.arm(definition, state, model, entering: .restore) }
      return .accepted
    }
    definition.trace("start")
    let initial = SelectedTransition(
      source: -1, targets: chart.rootInitial, kind: .external, actions: chart.rootInitialAction.map { [$0] } ?? [])
    let outcome = microstep(
      definition,
      chart, [initial], event: -1, eventName: "", payload: nil, model, from: ChartConfiguration(capacity: chart.count))
    if !outcome.happened { return outcome }
    if case .failed = outcome { return outcome }
    return takeEventless(definition, chart, event: -1, eventName: "", payload: nil, model) ?? .accepted
  }

  // MARK: The macrostep (S3)

  /// One external or queued event: select, `before` callbacks, the microstep, `after`
  /// callbacks, observers, then eventless transitions until none is enabled (S3, S12). Events
  /// raised meanwhile wait in the queue, which the caller drains.
  @inlinable
  static func chartStep(
    _ definition: StateMachineDefinition<Model>, _ chart: Statechart<Model>, _ event: Int32, _ payload: (any Sendable)?,
    _ model: Model
  ) -> StepOutcome {
    let eventName = definition.compiled.events[Int(event)]
    let configuration = chartConfiguration(definition, model, chart)
    // The state strings are built only when something reads them.
    func old() -> String { stateString(definition, configuration.active, chart) }
    definition.trace("event '\(eventName)' in '\(old())'")
    if let definitionError = definition.definitionError {
      return definition.rejected(.invalidDefinition(definitionError))
    }
    if definition.isTerminated(model) { return definition.rejected(.terminated(event: eventName, state: old())) }
    let selected: [SelectedTransition]
    do {
      selected = try selectTransitions(
        definition, chart, event: event, eventName: eventName, configuration, payload, model)
    } catch {
      return definition.failed(eventName, transitionHappened: false, error)
    }
    if selected.isEmpty {
      let declared =
        configuration.active.contains { state in
          chart.transitions(from: state).contains { chart.transitions[Int($0)].event == event }
        } || chart.rootTransitions.contains { chart.transitions[Int($0)].event == event }
      return definition.rejected(
        declared ? .guardsFailed(event: eventName, state: old()) : .noTransition(event: eventName, state: old()))
    }
    let first = selected[0]
    func transition(to: String) -> Transition {
      let from = old()
      return Transition(
        event: eventName, from: from, to: to.isEmpty ? from : to, payload: payload,
        source: chart.tree.path(first.source),
        targets: first.targets.map { chart.tree.path($0) }, kind: first.kind)
    }
    do {
      for callback in definition.compiled.beforeCallbacks[Int(event)] { try callback(model, { transition(to: "") }) }
    } catch {
      return definition.failed(eventName, transitionHappened: false, error)
    }
    let outcome = microstep(definition, chart, selected, event: event, eventName: eventName, payload: payload, model)
    guard outcome.happened else { return outcome }
    // Built once if an after callback or observer takes it (as in the flat step), else on demand.
    let built: Transition? =
      definition.compiled.takesTransition ? transition(to: chartState(definition, of: model, chart)) : nil
    func done() -> Transition { built ?? transition(to: chartState(definition, of: model, chart)) }
    var failure: (any Error)?
    if case .failed(let error, _) = outcome { failure = error }
    let extras = definition.locked(model) { model._$stateMachineStorage.extras }
    do {
      try StepActions.runAfterCallbacks(definition, event, model, extras, done)
    } catch {
      if failure == nil { failure = error }
    }
    // (The end of a step announces nothing: no need to ask whether the object announces.)
    StepFeatures<Model>(announces: false).ended(
      extras, transition: done,
      completed: {
        let completed = done()
        return CompletedTransition(from: completed.from, event: eventName, to: completed.to, payload: payload)
      }, definition, model)
    if let failure {
      if case .failed = outcome { return outcome }
      return definition.failed(eventName, transitionHappened: true, failure)
    }
    return takeEventless(definition, chart, event: event, eventName: eventName, payload: payload, model) ?? .accepted
  }

  /// Takes eventless transitions until none is enabled (S12): at most `maxEventlessMicrosteps`
  /// (1,000 by default), then
  /// ``StateMachineError/eventlessLoop(event:microsteps:)`` with the configuration reached and
  /// the queue dropped. `nil` when all went well.
  @inlinable
  static func takeEventless(
    _ definition: StateMachineDefinition<Model>,
    _ chart: Statechart<Model>, event: Int32, eventName: String, payload: (any Sendable)?, _ model: Model
  ) -> StepOutcome? {
    guard chart.hasEventless else { return nil }
    let limit = chart.maxEventlessMicrosteps
    var microsteps = 0
    while !definition.isTerminated(model) {
      let configuration = chartConfiguration(definition, model, chart)
      let selected: [SelectedTransition]
      do {
        selected = try selectTransitions(
          definition, chart, event: -1, eventName: eventName, configuration, payload, model)
      } catch {
        return definition.failed(eventName, transitionHappened: true, error)
      }
      if selected.isEmpty { return nil }
      microsteps += 1
      if microsteps > limit {
        let dropped = definition.locked(model) { model._$stateMachineStorage.dropOwnQueued(after: 0) }
        let error = StateMachineError.eventlessLoop(event: eventName, microsteps: limit)
        definition.trace("failed: \(error); dropped \(dropped) queued event(s)")
        return .failed(error, transitionHappened: true)
      }
      let outcome = microstep(definition, chart, selected, event: event, eventName: eventName, payload: payload, model)
      if case .failed = outcome { return outcome }
    }
    return nil
  }

  // MARK: The microstep (S7)

  /// SCXML D `microstep`: record history, exit in reverse document order, run the transitions'
  /// actions, write the configuration, enter in document order (S7). A throw before the write
  /// changes nothing; after it, the rest of the entry actions is skipped and the new
  /// configuration stands.
  @inlinable
  static func microstep(
    _ definition: StateMachineDefinition<Model>,
    _ chart: Statechart<Model>, _ transitions: [SelectedTransition], event: Int32, eventName: String,
    payload: (any Sendable)?, _ model: Model, from start: ChartConfiguration? = nil
  ) -> StepOutcome {
    let features = StepFeatures(definition, model)
    let old = start ?? chartConfiguration(definition, model, chart)
    let exits = chart.computeExitSet(transitions, old)
    // 1. History is recorded before any exit action (S15).
    var new = old
    for state in exits {
      for history in chart.historyChildren[Int(state)] {
        if case .history(.deep) = chart.kind(history) {
          new.history[history] = old.active.filter { chart.isAtomic($0) && chart.tree.isDescendant($0, of: state) }
        } else {
          new.history[history] = old.active.filter { chart.tree.parents[Int($0)] == state }
        }
      }
    }
    let entry = chart.computeEntrySet(transitions, new.history)
    new.active.subtract(exits)
    new.active.formUnion(entry.states)
    for transition in transitions {
      if let arrival = transition.arrival, !(new.arrivals[arrival.join] ?? []).contains(arrival.source) {
        new.arrivals[arrival.join, default: []].append(arrival.source)
      }
      if transition.completedJoin >= 0 { new.arrivals[transition.completedJoin] = nil }
    }
    // An arrival is forgotten when its source is exited (S17b).
    if !new.arrivals.isEmpty {
      for (join, sources) in new.arrivals { new.arrivals[join] = sources.filter { new.active.contains($0) } }
    }
    // Entry serials tell a trigger whether its state is still the one it was armed in (S18).
    if chart.hasTriggers {
      for state in exits { new.entrySerial[state] = nil }
      for state in entry.states {
        new.serial &+= 1
        new.entrySerial[state] = new.serial
      }
    }
    let terminates =
      transitions.contains { $0.terminates }
      || entry.states.contains { chart.kind($0) == .final && chart.tree.parents[Int($0)] == -1 }
    // Callbacks that take the Transition are rare: its strings are built only for them.
    func transition(_ selected: SelectedTransition) -> Transition {
      Transition(
        event: eventName, from: stateString(definition, old.active, chart),
        to: stateString(definition, new.active, chart), payload: payload,
        source: chart.tree.path(selected.source), targets: selected.targets.map { chart.tree.path($0) },
        kind: selected.kind)
    }
    let first = transitions[0]
    let built: Transition? = definition.compiled.takesTransition ? transition(first) : nil
    func primary() -> Transition { built ?? transition(first) }
    // 2.–3. Exits, children first, later regions first; then the transitions' actions.
    do {
      for state in exits.members.reversed() {
        features.exiting(.exit, state, event: event, payload: payload, definition, model)
        if !definition.compiled.exitActions[Int(state)].isEmpty {
          definition.trace("exit '\(chart.tree.paths[Int(state)])'")
        }
        try StepActions.runExitActions(definition, of: state, model, primary)
      }
      for selected in transitions {
        if features.announces, selected.kind == .internal, selected.arrival == nil, selected.source >= 0 {
          features.exiting(.internalTransition, selected.source, event: event, payload: payload, definition, model)
        }
        for action in selected.actions { try action(model, { transition(selected) }) }
      }
    } catch {
      return definition.failed(eventName, transitionHappened: false, error)
    }
    // 4. The configuration is written; the exited states' triggers are disarmed.
    writeChart(definition, new, chart, terminated: terminates, model)
    definition.trace(
      "'\(stateString(definition, old.active, chart))' -> '\(stateString(definition, new.active, chart))' on '\(eventName)'"
    )
    // An inspected run notes the microstep where the log traces it (Inspecting B.3).
    let extras = definition.locked(model) { model._$stateMachineStorage.extras }
    features.transitioned(
      extras,
      {
        CompletedTransition(
          from: stateString(definition, old.active, chart), event: eventName,
          to: stateString(definition, new.active, chart), payload: payload)
      })
    features.noted(extras) {
      $0.noteMicrostep(
        exits: Array(exits.members.reversed()), entries: entry.states.members,
        transitions: DiagramWriter.inspectionEdges(definition, transitions, chart))
    }
    if terminates {
      features.disarmed(extras, all: true, definition, model)
    } else {
      features.disarmed(extras, exited: exits)
    }
    // 5. Entries in document order.
    var entered = old.active
    entered.subtract(exits)
    var failure: (any Error)?
    for state in entry.states {
      entered.insert(state)
      features.entering(state, event: event, payload: payload, definition, model)
      if failure == nil {
        do {
          try StepActions.runEntryActions(definition, of: state, model, primary)
          if entry.defaultEntry.contains(state), let action = chart.initialActions[Int(state)] {
            try action(model, primary)
          }
          if let history = entry.historyDefaults[state], let action = chart.historyActions[Int(history)] {
            try action(model, primary)
          }
        } catch {
          failure = error
        }
      }
      if !terminates { features.armed(state, event: event, payload: payload, definition, model) }
      // Done events (S16).
      if chart.kind(state) == .final {
        let parent = chart.tree.parents[Int(state)]
        guard parent >= 0 else { continue }
        raise(definition, chart.doneEvents[Int(parent)], model)
        let grandparent = chart.tree.parents[Int(parent)]
        if chart.isParallel(grandparent)
          && chart.tree.stateChildren(of: grandparent).allSatisfy({ chart.isInFinalState($0, entered) })
        {
          raise(definition, chart.doneEvents[Int(grandparent)], model)
        }
      }
    }
    if let failure { return definition.failed(eventName, transitionHappened: true, failure) }
    return .accepted
  }

  /// Appends an internal event (a done event) to the queue, if a transition handles it.
  @inlinable
  static func raise(_ definition: StateMachineDefinition<Model>, _ event: Int32, _ model: Model) {
    guard event >= 0 else { return }
    definition.locked(model) {
      model._$stateMachineStorage.enqueue(QueuedEvent(event: event, payload: nil, isOwn: true, source: .post))
    }
  }

  // MARK: Queries

  /// Whether `event` would take a transition now (S19): selection yields a transition. Guards
  /// run; nothing changes.
  @inlinable
  static func chartCanTake(
    _ definition: StateMachineDefinition<Model>, _ chart: Statechart<Model>, _ event: Int32, _ model: Model
  ) -> Bool {
    if definition.isTerminated(model) { return false }
    let configuration = chartConfiguration(definition, model, chart)
    let selected = try? selectTransitions(
      definition,
      chart, event: event, eventName: definition.compiled.events[Int(event)], configuration, nil, model)
    return !(selected ?? []).isEmpty
  }
}
