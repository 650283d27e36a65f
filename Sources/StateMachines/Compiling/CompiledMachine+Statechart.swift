import Foundation

extension CompiledMachine {
  /// Compiles a hierarchical definition: the state tree in document order, the statechart
  /// tables, and flat tables whose every slot sends the event to the statechart step.
  init(statechart builder: StateMachineBuilder<Model>) throws(DefinitionError) {
    let store = builder.store
    guard store.maxStepsPerRunToCompletion >= 1 else {
      throw .invalidValue("\(store.maxStepsPerRunToCompletion)", context: "maxStepsPerRunToCompletion")
    }
    let tree: StateTree
    if let checked = store.checkedTree { tree = checked } else { tree = try StateTree(store) }
    guard tree.count > 0 else { throw .noStates }
    let eventNames = EventNames()
    guard store.maxEventlessMicrosteps >= 1 else {
      throw .invalidValue("\(store.maxEventlessMicrosteps)", context: "maxEventlessMicrosteps")
    }
    // Without plans: the final chart, made below, adds them.
    let unplanned = try Statechart.compile(store, tree: tree, events: eventNames)
    identityToken = DefinitionIdentity()
    identity = ObjectIdentifier(identityToken)
    maxSteps = store.maxStepsPerRunToCompletion
    scheduler = timeoutScheduler(for: store.clock)
    states = tree.paths
    events = eventNames.names
    stateTable = NameTable(tree.paths)
    eventTable = NameTable(events)
    initialStateIndex = unplanned.rootInitial.first ?? 0
    let eventIndexByName = eventNames.index
    for callback in store.beforeCallbacks + store.afterCallbacks where eventIndexByName[callback.name] == nil {
      throw callback.name.isEmpty
        ? .emptyName(context: "a before or after callback") : .undeclaredEvent(callback.name, context: "before/after('\(callback.name)')")
    }
    beforeCallbacks = Self.group(store.beforeCallbacks, by: eventIndexByName, count: events.count)
    afterCallbacks = Self.group(store.afterCallbacks, by: eventIndexByName, count: events.count)
    var entryActions = [[EntryAction]](repeating: [], count: tree.count)
    var exitActions = [[Callback]](repeating: [], count: tree.count)
    func resolve(_ reference: StateReference, _ context: @autoclosure () -> String) throws(DefinitionError) -> Int32 {
      try tree.resolve(reference, context: context())
    }
    for action in store.entryActions {
      entryActions[Int(try resolve(action.state, "onEntry('\(action.state.text)')"))].append(action.body)
    }
    for action in store.exitActions {
      exitActions[Int(try resolve(action.state, "onExit('\(action.state.text)')"))].append(action.body)
    }
    self.entryActions = entryActions
    self.exitActions = exitActions
    isFinal = tree.kinds.map { $0 == .final }
    observers = store.observers
    // Junction paths and history defaults take the Transition too, but only the full step runs them.
    takesTransition = Self.anyTakesTransition(builder)
    log = store.log
    isSkeleton = store.isSkeleton
    clock = store.clock
    notificationCenter = store.notificationCenter
    var triggers = [[Trigger]](repeating: [], count: tree.count)
    // Timeouts and notifications, on the states that declare them (S18).
    for spec in store.transitions where spec.timeout != nil || spec.notification != nil {
      for reference in spec.from ?? [] {
        let state = try resolve(reference, "transition '\(spec.event)'")
        triggers[Int(state)].append(
          Trigger(event: eventIndexByName[spec.event]!, timeout: spec.timeout, notification: spec.notification))
      }
    }
    invocations = try Self.compileInvocations(
      store, events: eventIndexByName, triggers: &triggers,
      resolve: { reference throws(DefinitionError) in try resolve(reference, "invoke") },
      refusal: { state in
        let kind = tree.kinds[Int(state)]
        if kind.isPseudostate { return "a pseudostate cannot invoke" }
        return kind == .final ? "a final state cannot invoke" : nil
      })
    forwardsEvents = invocations.contains { $0.autoforward }
    self.triggers = triggers
    armsTriggers = triggers.map { !$0.isEmpty }
    hasEntryActions = entryActions.map { !$0.isEmpty }
    // Diagrams of a statechart read the chart itself.
    declaredTransitions = []
    // Every known event takes the statechart step; the last column rejects unknown events.
    columnHeight = tree.count
    var fastSlots = [TransitionSlot](repeating: .full, count: tree.count * (events.count + 1))
    for state in 0..<tree.count {
      fastSlots[TransitionSlot.position(event: events.count, state: state, columnHeight: tree.count)] = .none
    }
    let hasTriggers = triggers.contains { !$0.isEmpty }
    // Observers, the log and notifications see every step: no slot may skip it.
    let everyStepRuns = !store.observers.isEmpty || store.log != nil || store.postsStateNotifications
    // Worked out once as plain flags: planning asks for every state of every slot, and reading the
    // generic callback tables each time is slow in unspecialised code.
    let (entries, exits, stateTriggers) = (entryActions, exitActions, triggers)
    let (before, after) = (beforeCallbacks, afterCallbacks)
    let stateRunsCode = (0..<tree.count).map { state in
      everyStepRuns || !entries[state].isEmpty || !exits[state].isEmpty || !stateTriggers[state].isEmpty
    }
    let eventRunsCode = (0..<events.count).map { !before[$0].isEmpty || !after[$0].isEmpty }
    let code = StepPlans.Code(state: { stateRunsCode[Int($0)] }, event: { eventRunsCode[Int($0)] })
    let chart: Statechart<Model>
    if !unplanned.isNested {
      chart = Statechart(
        unplanned, plans: StepPlans.parallel(unplanned, events: events.count, code: code), hasTriggers: hasTriggers)
    } else {
      // Triggers check their state's entry record, which then lives in the extras (the
      // initializer sets `nestedNeedsRecord`).
      let plans = StepPlans.nested(unplanned, events: events.count, code: code, fast: &fastSlots)
      chart = Statechart(unplanned, plans: plans, hasTriggers: hasTriggers)
      // The state index always holds a leaf once the machine started: other rows are never read.
      for state in 0..<tree.count where !chart.isAtomic(Int32(state)) {
        for event in 0..<events.count {
          fastSlots[TransitionSlot.position(event: event, state: state, columnHeight: tree.count)] = .none
        }
      }
      // A slot with no transition at all rejects from the table.
      for leaf in 0..<tree.count where chart.isAtomic(Int32(leaf)) {
        for event in 0..<events.count where !chart.hasEventless {
          let slot = TransitionSlot.position(event: event, state: leaf, columnHeight: tree.count)
          if chart.plans.plan(event: Int32(event), from: Int32(leaf)) == nil && !Self.anyTransition(chart, event: Int32(event), leaf: Int32(leaf)) {
            fastSlots[slot] = .none
          }
        }
      }
    }
    self.fastSlots = fastSlots
    // An event with transitions from one leaf only compares the leaf instead of loading (the
    // nested shape's fast tier, like a flat machine's).
    var onlySources = [Int32](repeating: -1, count: events.count)
    if chart.isNested && store.log == nil {
      for event in 0..<events.count {
        let sources = (0..<tree.count).filter {
          fastSlots[TransitionSlot.position(event: event, state: $0, columnHeight: tree.count)] != .none
        }
        if sources.count == 1 { onlySources[event] = Int32(sources[0]) }
      }
    }
    eventIDs = Self.eventIDs(fastSlots, onlySources: onlySources, columnHeight: tree.count, identity: identity)
    lightTransitions = []
    lightTransitionObjects = []
    soleAfterSlotLimit = .min
    candidateRows = CandidateRows(emptyWith: tree.count)
    candidates = []
    candidateDeclarations = []
    engine = .statechart(chart)
    unretainedChart = Unmanaged.passUnretained(chart)
    matchesEventsByPrefix = store.matchesEventsByPrefix
    postsStateNotifications = store.postsStateNotifications
  }

  /// Whether any transition on `event` is declared on `leaf`, an ancestor, or the root.
  private static func anyTransition(_ chart: Statechart<Model>, event: Int32, leaf: Int32) -> Bool {
    ([leaf] + chart.tree.ancestors(of: leaf) + [-1]).contains { holder in
      chart.transitions(from: holder).contains { chart.transitions[Int($0)].event == event }
    }
  }
}
