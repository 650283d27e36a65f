// The flat compiler: a definition without nesting or pseudostates, compiled to the tables of
// `CompiledMachine` (its statechart twin is `CompiledMachine+Statechart.swift`).

import Foundation
internal import StateMachinesNames

extension CompiledMachine {
  /// Compiles a flat definition: no nesting, no pseudostates.
  init(flat builder: StateMachineBuilder<Model>) throws(DefinitionError) {
    let states = builder.states
    guard !states.isEmpty else { throw .noStates }
    guard builder.maxStepsPerRunToCompletion >= 1 else {
      throw .invalidValue("\(builder.maxStepsPerRunToCompletion)", context: "maxStepsPerRunToCompletion")
    }
    identityToken = DefinitionIdentity()
    identity = ObjectIdentifier(identityToken)
    maxSteps = builder.maxStepsPerRunToCompletion
    scheduler = timeoutScheduler(for: builder.clock)
    do throws(NameError) {
      for name in states { try NameGrammar.checkStateName(name) }
    } catch {
      throw DefinitionError(error, context: "addState")
    }
    let events = builder.eventNames
    do throws(NameError) {
      for name in events { try NameGrammar.checkEventName(name) }
    } catch {
      throw DefinitionError(error, context: "a transition's event")
    }
    self.states = states
    self.events = events
    let stateIndexByName = Self.indexes(states)
    let eventIndexByName = Self.indexes(events)
    stateTable = NameTable(states)
    eventTable = NameTable(events)
    initialStateIndex = stateIndexByName[builder.initialState ?? states[0]] ?? 0

    try Self.checkNames(of: builder, states: stateIndexByName, events: eventIndexByName)
    beforeCallbacks = Self.group(builder.beforeCallbacks, by: eventIndexByName, count: events.count)
    afterCallbacks = Self.group(builder.afterCallbacks, by: eventIndexByName, count: events.count)
    exitActions = Self.group(builder.exitActions.map { .init(name: $0.state.text, body: $0.body) }, by: stateIndexByName, count: states.count)
    var entryActions = [[EntryAction]](repeating: [], count: states.count)
    for action in builder.entryActions {
      entryActions[Int(stateIndexByName[action.state.text]!)].append(action.body)
    }
    self.entryActions = entryActions
    var isFinal = [Bool](repeating: false, count: states.count)
    for state in builder.finalStates { isFinal[Int(stateIndexByName[state]!)] = true }
    self.isFinal = isFinal
    observers = builder.observers
    takesTransition = Self.anyTakesTransition(builder)
    log = builder.log
    isSkeleton = builder.store.isSkeleton
    clock = builder.clock
    notificationCenter = builder.notificationCenter
    engine = .flat
    unretainedChart = nil
    matchesEventsByPrefix = builder.matchesEventsByPrefix
    postsStateNotifications = builder.postsStateNotifications
    var triggers = [[Trigger]](repeating: [], count: states.count)
    let transitions = builder.transitions
    for spec in transitions where spec.timeout != nil || spec.notification != nil {
      for from in spec.fromNames ?? [] {
        triggers[Int(stateIndexByName[from]!)].append(
          Trigger(event: eventIndexByName[spec.event]!, timeout: spec.timeout, notification: spec.notification))
      }
    }
    invocations = try Self.compileInvocations(
      builder.store, events: eventIndexByName, triggers: &triggers,
      resolve: { reference throws(DefinitionError) in
        guard let state = stateIndexByName[reference.text] else {
          throw .undeclaredState(reference.text, context: "invoke")
        }
        return state
      },
      refusal: { [isFinal] in isFinal[Int($0)] ? "a final state cannot invoke" : nil })
    forwardsEvents = invocations.contains { $0.autoforward }
    self.triggers = triggers
    armsTriggers = triggers.map { !$0.isEmpty }
    hasEntryActions = entryActions.map { !$0.isEmpty }
    declaredTransitions = transitions.map { spec in
      DeclaredTransition(
        event: eventIndexByName[spec.event]!, from: spec.fromNames.map { $0.map { stateIndexByName[$0]! } },
        to: spec.toName.map { stateIndexByName[$0]! }, isGuarded: spec.guardBody != nil,
        isInternal: spec.isInternal, terminates: spec.terminates, timeout: spec.timeout,
        notification: spec.notification)
    }

    // Each event's callbacks, boxed for light transitions if none of them takes a Transition;
    // likewise each state's exit and entry actions.
    let plainBoxes = zip(beforeCallbacks, afterCallbacks).map { Self.plainBoxes(before: $0, after: $1) }
    let plainStateActions = StatePlainActions(
      exits: exitActions.map { Self.boxes($0) },
      entries: entryActions.map { actions -> [PlainCallbackBox<Model>]? in
        var callbacks: [Callback] = []
        for action in actions {
          guard case .callback(let callback) = action else { return nil }
          callbacks.append(callback)
        }
        return Self.boxes(callbacks)
      })

    // The slots that have transitions, found from the transitions (linear in their number plus
    // the states times the wildcard events), then filled in; the dense fast table is only
    // initialised, a memset.
    var specificByState = [[(event: Int32, transition: Int32)]](repeating: [], count: states.count)
    var wildcardByEvent: [Int32: [Int32]] = [:]
    for (index, spec) in transitions.enumerated() {
      let event = eventIndexByName[spec.event]!
      guard let from = spec.fromNames else {
        wildcardByEvent[event, default: []].append(Int32(index))
        continue
      }
      for state in from {
        let row = Int(stateIndexByName[state]!)
        if specificByState[row].last.map({ $0 != (event, Int32(index)) }) ?? true {
          specificByState[row].append((event, Int32(index)))
        }
      }
    }
    let wildcardEvents = wildcardByEvent.keys.sorted()
    let allSlotsFull = !observers.isEmpty || builder.log != nil || builder.postsStateNotifications
    columnHeight = states.count
    var fastSlots = [TransitionSlot](
      repeating: builder.log != nil ? .full : .none, count: states.count * (events.count + 1))
    var lightSlots: [(position: Int, transition: LightTransition<Model>)] = []
    var candidates: [FlatCandidate] = []
    var candidateDeclarations: [Int32] = []
    var rowStarts: [Int32] = [0]
    var rowEvents: [Int32] = []
    var candidateStarts: [Int32] = [0]
    var sourceCount = [Int32](repeating: 0, count: events.count)
    var lastSource = [Int32](repeating: -1, count: events.count)
    rowStarts.reserveCapacity(states.count + 1)
    for from in 0..<Int32(states.count) {
      // This state's events: its own, in event order (declaration order within one event), and
      // the wildcard events.
      let specific = specificByState[Int(from)].sorted { ($0.event, $0.transition) < ($1.event, $1.transition) }
      var position = 0
      var wildcardPosition = 0
      while position < specific.count || wildcardPosition < wildcardEvents.count {
        let nextSpecific = position < specific.count ? specific[position].event : Int32.max
        let nextWildcard = wildcardPosition < wildcardEvents.count ? wildcardEvents[wildcardPosition] : Int32.max
        let event = min(nextSpecific, nextWildcard)
        var slotTransitions: [Int32] = []
        while position < specific.count, specific[position].event == event {
          slotTransitions.append(specific[position].transition)
          position += 1
        }
        if nextWildcard == event {
          slotTransitions += wildcardByEvent[event]!
          wildcardPosition += 1
        }
        var slot: [FlatCandidate] = []
        for index in slotTransitions {
          let spec = transitions[Int(index)]
          slot.append(
            FlatCandidate(
              target: spec.toName.map { stateIndexByName[$0]! } ?? -1, isInternal: spec.isInternal,
              terminates: spec.terminates, guardBody: spec.guardBody, action: spec.action))
          candidateDeclarations.append(index)
          // A candidate without a guard always wins: later ones can never be taken.
          if spec.guardBody == nil { break }
        }
        let needsFullStep =
          allSlotsFull || !triggers[Int(from)].isEmpty
          || slot.contains { $0.target >= 0 && !triggers[Int($0.target)].isEmpty }
        let slotIndex = TransitionSlot.position(event: Int(event), state: Int(from), columnHeight: states.count)
        switch Self.tier(
          of: slot, from: from, stateActions: plainStateActions, isFinal: isFinal,
          needsFullStep: needsFullStep, callbacks: plainBoxes[Int(event)])
        {
        case .none: fastSlots[slotIndex] = .none
        case .fast(let target): fastSlots[slotIndex] = .fast(target)
        case .full: fastSlots[slotIndex] = .full
        case .light(let transition): lightSlots.append((slotIndex, transition))
        }
        candidates += slot
        rowEvents.append(event)
        candidateStarts.append(Int32(candidates.count))
        sourceCount[Int(event)] += 1
        lastSource[Int(event)] = from
      }
      rowStarts.append(Int32(rowEvents.count))
    }
    (lightTransitionObjects, soleAfterSlotLimit) = LightTransition.place(lightSlots, in: &fastSlots)
    self.fastSlots = fastSlots
    lightTransitions = lightTransitionObjects.map { Unmanaged.passUnretained($0) }
    // An event with transitions from one state only compares the state instead of loading the
    // table (not with a log, where every slot takes the full step).
    let onlySources = (0..<events.count).map { sourceCount[$0] == 1 && builder.log == nil ? lastSource[$0] : -1 }
    eventIDs = Self.eventIDs(
      fastSlots, onlySources: onlySources, columnHeight: states.count, identity: identity,
      lightTransitions: lightTransitionObjects)
    candidateRows = CandidateRows(rowStarts: rowStarts, events: rowEvents, candidateStarts: candidateStarts)
    self.candidates = candidates
    self.candidateDeclarations = candidateDeclarations
  }

  /// How a slot is taken.
  private enum Tier {
    /// No transition.
    case none
    /// A transition to this state that runs no code at all.
    case fast(Int32)
    /// A transition that runs only a plain guard and plain before/after callbacks.
    case light(LightTransition<Model>)
    /// Anything else: the full step.
    case full
  }

  /// Each state's exit and entry actions, boxed, or `nil` for a state with one that takes a
  /// ``Transition`` or may ask for a ``NextStep``.
  private struct StatePlainActions {
    let exits: [[PlainCallbackBox<Model>]?]
    let entries: [[PlainCallbackBox<Model>]?]
  }

  /// The tier of a slot. `callbacks` are the event's callbacks, boxed, if none takes a
  /// ``Transition``.
  ///
  /// A light transition runs its source's exit actions after the `before` callbacks and its
  /// target's entry actions before the `after` callbacks (Semantics steps 4 and 7), when all of
  /// them take only the model: each list is run as one, which keeps the rules of Semantics, as
  /// one that throws before the state is written aborts the step, and one that throws after it
  /// skips the rest.
  private static func tier(
    of slot: [FlatCandidate], from: Int32, stateActions: StatePlainActions, isFinal: [Bool],
    needsFullStep: Bool, callbacks: (before: [PlainCallbackBox<Model>], after: [PlainCallbackBox<Model>])?
  ) -> Tier {
    guard let only = slot.first else { return .none }
    let target = only.target
    // An internal transition runs no state actions.
    let exits = only.isInternal ? [] : stateActions.exits[Int(from)]
    let entries = only.isInternal || target < 0 ? [] : stateActions.entries[Int(target)]
    // Boxed straight from the enum payload: keeping the closure in an Optional first would wrap
    // it in reabstraction thunks, paid on every call.
    var guardBox: PlainGuardBox<Model>?
    if case .plain(let body)? = only.guardBody { guardBox = PlainGuardBox(body) }
    let runsOnlyCallbacks =
      slot.count == 1 && (only.guardBody == nil || guardBox != nil) && only.action == nil
      && !only.terminates && target >= 0 && !isFinal[Int(target)] && !needsFullStep
    guard runsOnlyCallbacks, let callbacks, let exits, let entries else { return .full }
    let before = callbacks.before + exits
    let after = entries + callbacks.after
    if before.isEmpty && after.isEmpty && guardBox == nil { return .fast(target) }
    return .light(LightTransition(target: target, guardBox: guardBox, before: before, after: after))
  }

  /// An event's callbacks, boxed, or `nil` if any of them takes a ``Transition``.
  private static func plainBoxes(
    before: [Callback], after: [Callback]
  ) -> (before: [PlainCallbackBox<Model>], after: [PlainCallbackBox<Model>])? {
    guard let before = boxes(before), let after = boxes(after) else { return nil }
    return (before, after)
  }

  /// `callbacks` boxed, or `nil` if one of them takes a ``Transition``.
  private static func boxes(_ callbacks: [Callback]) -> [PlainCallbackBox<Model>]? {
    var boxes: [PlainCallbackBox<Model>] = []
    for callback in callbacks {
      // Boxed straight from the enum payload: going through an Optional would wrap each closure
      // in two reabstraction thunks, paid on every call.
      guard case .plain(let body) = callback else { return nil }
      boxes.append(PlainCallbackBox(body))
    }
    return boxes
  }

  private static func checkNames(
    of builder: StateMachineBuilder<Model>, states: [String: Int32], events: [String: Int32]
  ) throws(DefinitionError) {
    func state(_ name: String, _ context: @autoclosure () -> String) throws(DefinitionError) {
      if name.isEmpty { throw .emptyName(context: context()) }
      if states[name] == nil { throw .undeclaredState(name, context: context()) }
    }
    func event(_ name: String, _ context: @autoclosure () -> String) throws(DefinitionError) {
      if name.isEmpty { throw .emptyName(context: context()) }
      if events[name] == nil { throw .undeclaredEvent(name, context: context()) }
    }
    if let initial = builder.initialState { try state(initial, "initialState") }
    for (index, transition) in builder.transitions.enumerated() {
      // An error about the transition is blamed on it, for a loader to locate.
      try builder.store.blaming(.transition(builder.store.declaredIndex(ofTransition: index), target: nil)) {
        () throws(DefinitionError) in
        let context = "transition '\(transition.event)'"
        for from in transition.fromNames ?? [] { try state(from, context) }
        if let to = transition.toName { try state(to, context) }
        if let timeout = transition.timeout, timeout < .zero {
          throw .invalidValue("\(timeout)", context: "the timeout of \(context)")
        }
        if transition.isInternal, let to = transition.toName, transition.fromNames != [to] {
          throw .internalTransitionChangesState(event: transition.event)
        }
      }
    }
    for callback in builder.beforeCallbacks { try event(callback.name, "before('\(callback.name)')") }
    for callback in builder.afterCallbacks { try event(callback.name, "after('\(callback.name)')") }
    for action in builder.entryActions { try state(action.state.text, "onEntry('\(action.state.text)')") }
    for action in builder.exitActions { try state(action.state.text, "onExit('\(action.state.text)')") }
  }
}
