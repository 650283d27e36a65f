// Restoring a statechart's configuration from its `state` string (Hierarchy §3, S1): the
// active leaves' paths joined by `,`, bare names where unique, or a compound state whose defaults
// are filled in. An illegal configuration is rejected and the machine keeps the one it has.

@usableFromInline
enum StateRestoring<Model: StateMachineObject> {
  /// The configuration a `state` string names, checked against S1.
  ///
  /// - Throws: ``StateMachineError/unknownState(_:)`` for a name or path that is not a state;
  ///   ``StateMachineError/illegalConfiguration(_:reason:)`` for two children of one compound
  ///   state, or a region of an active parallel state without an active state.
  static func configuration(_ definition: StateMachineDefinition<Model>, parsing text: String, _ chart: Statechart<Model>) throws(StateMachineError) -> StateSet {
    var given: [Int32] = []
    // Split among the scalars: a name may start with a combining mark, which forms one
    // `Character` with the `,` before it.
    for component in text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false) {
      let name = String(Substring(component))
      let index = definition.compiled.stateTable.index(of: name) ?? definition.stateIndex(resolving: name)
      guard index >= 0, !chart.tree.kinds[Int(index)].isPseudostate else { throw .unknownState(name) }
      given.append(index)
    }
    var active = StateSet(capacity: chart.count)
    for state in given {
      active.insert(state)
      for ancestor in chart.tree.ancestors(of: state) { active.insert(ancestor) }
    }
    // The deepest given states enter their defaults.
    for state in given where !given.contains(where: { chart.tree.isDescendant($0, of: state) }) {
      active.formUnion(StateRestoring.defaultDescendants(definition, of: state, chart))
    }
    try StateRestoring.checkLegal(definition, active, chart, text)
    return active
  }

  /// The states a default entry of `state` enters below it (S9, S11).
  static func defaultDescendants(_ definition: StateMachineDefinition<Model>, of state: Int32, _ chart: Statechart<Model>) -> StateSet {
    if chart.isCompound(state) {
      let local = Statechart<Model>.SelectedTransition(source: state, targets: chart.initial[Int(state)], kind: .local, actions: [])
      return chart.computeEntrySet([local], [:]).states
    }
    var result = StateSet(capacity: chart.count)
    if chart.isParallel(state) {
      for region in chart.tree.stateChildren(of: state) {
        result.insert(region)
        result.formUnion(StateRestoring.defaultDescendants(definition, of: region, chart))
      }
    }
    return result
  }

  /// The configuration a machine starts in, without running anything.
  static func initialConfiguration(_ definition: StateMachineDefinition<Model>, _ chart: Statechart<Model>) -> StateSet {
    let initial = Statechart<Model>.SelectedTransition(source: -1, targets: chart.rootInitial, kind: .external, actions: [])
    return chart.computeEntrySet([initial], [:]).states
  }

  /// S1: exactly one top-level state, one child per active compound state, every region of an
  /// active parallel state.
  static func checkLegal(_ definition: StateMachineDefinition<Model>, _ active: StateSet, _ chart: Statechart<Model>, _ text: String) throws(StateMachineError) {
    func check(_ parent: Int32) throws(StateMachineError) {
      let children = chart.tree.stateChildren(of: parent).filter { active.contains($0) }
      if parent == -1 || chart.isCompound(parent) {
        if children.count > 1 {
          throw .illegalConfiguration(
            text,
            reason: "\(parent == -1 ? "the machine" : "'\(chart.tree.paths[Int(parent)])'") has several active children: "
              + children.map { "'\(chart.tree.paths[Int($0)])'" }.joined(separator: " and "))
        }
        if children.isEmpty {
          throw .illegalConfiguration(text, reason: "'\(chart.tree.path(parent))' has no active child")
        }
      } else if chart.isParallel(parent) {
        for region in chart.tree.stateChildren(of: parent) where !active.contains(region) {
          throw .illegalConfiguration(
            text, reason: "region '\(chart.tree.paths[Int(region)])' of '\(chart.tree.paths[Int(parent)])' has no active state")
        }
      }
      for child in children { try check(child) }
    }
    try check(-1)
  }

  /// Takes the machine, disarms the old state's triggers, `write`s the resolved state (which
  /// answers the active states and whether it terminated), arms the new triggers and runs what
  /// the Observation hooks queued.
  static func replaceState(_ definition: StateMachineDefinition<Model>,
    _ state: String, _ model: Model, write: () -> (active: [Int32], terminated: Bool)
  ) throws(StateMachineError) {
    // P13: a store-managed object changes state only through its store's steps.
    let outsideStore = definition.locked(model) {
      let storage = model._$stateMachineStorage
      return storage.slowPathFlags & StateMachineStorage.storeManagedFlag != 0 && storage.extras?.storeRecorder == nil
    }
    if outsideStore {
      definition.trace("restoreState('\(state)') refused: the object is store-managed (P13)")
      throw .storeManaged(event: "restoreState")
    }
    guard case .taken = RunLoop.admit(definition, model, whileBusy: {}) else {
      definition.trace("restoreState('\(state)') rejected: the machine is running a step")
      throw .busy("restoreState")
    }
    let before = definition.activeStateIndices(model)
    Triggers.disarm(definition, model)
    let (active, terminated) = write()
    if !terminated { for member in active { Triggers.arm(definition, member, model, entering: .restoreState) } }
    Inspection.recordReset(definition, exited: before.reversed(), entered: active, model)
    if RunLoop.endRun(definition, model, event: -1) { throw definition.limitError(-1) }
  }

  /// Writes a flat machine's state `index`.
  static func restoreFlat(_ definition: StateMachineDefinition<Model>, _ index: Int32, _ model: Model) -> (active: [Int32], terminated: Bool) {
    let terminated = definition.compiled.isFinal[Int(index)]
    model._$stateMachineWillChangeState()
    definition.locked(model) {
      model._$stateMachineStorage.stateIndex = index
      model._$stateMachineStorage.isTerminated = terminated
    }
    StateRestoring.clearStartFlags(definition, model)
    model._$stateMachineDidChangeState()
    return ([index], terminated)
  }

  /// Writes a statechart's `active` states, every one freshly entered (new entry serials), its
  /// history kept.
  static func restoreChart(_ definition: StateMachineDefinition<Model>, _ active: StateSet, _ chart: Statechart<Model>, _ model: Model)
    -> (active: [Int32], terminated: Bool)
  {
    let members = active.members
    var configuration = StatechartEngine.chartConfiguration(definition, model, chart)
    configuration.active = active
    configuration.arrivals = [:]
    configuration.entrySerial = [:]
    for member in members {
      configuration.serial &+= 1
      configuration.entrySerial[member] = configuration.serial
    }
    let terminated = members.contains { chart.kind($0) == .final && chart.tree.parents[Int($0)] == -1 }
    definition.locked(model) { model._$stateMachineStorage.isTerminated = false }
    StateRestoring.clearStartFlags(definition, model)
    StatechartEngine.writeChart(definition, configuration, chart, terminated: terminated, model)
    return (members, terminated)
  }

  /// A restored machine has started: nothing is left to enter.
  static func clearStartFlags(_ definition: StateMachineDefinition<Model>, _ model: Model) {
    definition.locked(model) {
      model._$stateMachineStorage.set(StateMachineStorage.unstartedFlag | StateMachineStorage.restoredFlag, false)
    }
  }

  // MARK: Codable

  /// What `Codable` writes for `storage`: the `state` string, whether a flat machine terminated
  /// in a state that is not final (by a terminating transition, which the state alone does not
  /// tell), and the history records by path (`nil` when the machine has no history, or nothing
  /// was recorded).
  static func encodedState(_ definition: StateMachineDefinition<Model>, of storage: StateMachineStorage) -> (state: String, terminatedEarly: Bool, history: [String: [String]]?) {
    switch definition.compiled.engine {
    case .flat:
      let index = storage.stateIndex
      return (definition.stateName(index), storage.isTerminated && !definition.isFinalState(index), nil)
    case .statechart(let chart):
      let (state, history) = StateRestoring.encodedChartState(definition, of: storage, chart)
      return (state, false, history)
    }
  }

  static func encodedChartState(_ definition: StateMachineDefinition<Model>, of storage: StateMachineStorage, _ chart: Statechart<Model>)
    -> (state: String, history: [String: [String]]?)
  {
    var configuration = storage.extras?.chart
    if chart.isNested && !storage.isUnstarted {
      var derived = configuration ?? ChartConfiguration(capacity: chart.count)
      derived.active = chart.activeStates(leaf: storage.stateIndex)
      configuration = derived
    }
    let active = configuration?.active ?? StateRestoring.initialConfiguration(definition, chart)
    var history: [String: [String]]?
    if let records = configuration?.history, !records.isEmpty {
      history = Dictionary(
        uniqueKeysWithValues: records.map { record in
          (chart.tree.paths[Int(record.key)], record.value.map { chart.tree.paths[Int($0)] })
        })
    }
    return (StatechartEngine.stateString(definition, active, chart), history)
  }

  /// Storage decoded from a `state` string and history records; throws a message for a state or
  /// configuration the definition does not have.
  static func decodedStorage(_ definition: StateMachineDefinition<Model>, state: String, history: [String: [String]]?, terminated: Bool) throws(StateMachineError)
    -> StateMachineStorage
  {
    switch definition.compiled.engine {
    case .flat:
      guard let index = definition.compiled.stateTable.index(of: state) else { throw .unknownState(state) }
      return StateMachineStorage(definition, state: index, terminated: terminated, restored: true)
    case .statechart(let chart):
      return try StateRestoring.decodedChartStorage(definition, state: state, history: history, terminated: terminated, chart)
    }
  }

  static func decodedChartStorage(_ definition: StateMachineDefinition<Model>,
    state: String, history: [String: [String]]?, terminated: Bool, _ chart: Statechart<Model>
  ) throws(StateMachineError) -> StateMachineStorage {
    var configuration = ChartConfiguration(capacity: chart.count)
    configuration.active = try StateRestoring.configuration(definition, parsing: state, chart)
    for (path, recorded) in history ?? [:] {
      let node = definition.compiled.stateTable.index(of: path) ?? -1
      guard node >= 0, chart.isHistory(node) else { throw .unknownState(path) }
      configuration.history[node] = try recorded.map { recordedPath throws(StateMachineError) in
        guard let index = definition.compiled.stateTable.index(of: recordedPath), chart.tree.isDescendant(index, of: chart.tree.parents[Int(node)])
        else { throw .unknownState(recordedPath) }
        return index
      }
    }
    for member in configuration.active.members {
      configuration.serial &+= 1
      configuration.entrySerial[member] = configuration.serial
    }
    let isFinal = configuration.active.members.contains { chart.kind($0) == .final && chart.tree.parents[Int($0)] == -1 }
    return StateMachineStorage(definition, configuration: configuration, terminated: terminated || isFinal)
  }
}

