/// A hierarchical definition as tables in document order (Hierarchy §6): what the statechart
/// step (SCXML Appendix D on indices) reads. Built once per definition, when the builder declares
/// nested or parallel states, pseudostates, eventless transitions or forks; a flat definition has
/// none and keeps the flat tables.
///
/// `@unchecked Sendable`: every property is a `let`, set before the chart is shared (the kept
/// chart is made by ``init(_:plans:hasTriggers:)``). It is not checked only because it holds the
/// definition's guards and actions, which run as ``StateMachineDefinition`` says.
@usableFromInline
final class Statechart<Model>: @unchecked Sendable {
  /// One transition, resolved.
  @usableFromInline
  struct ChartTransition {
    /// The declaring state; -1 for a wildcard, which belongs to the root (S4).
    @usableFromInline let source: Int32
    /// -1 for an eventless transition (S12).
    @usableFromInline let event: Int32
    /// Empty: targetless (internal, or `die`). May name history, junction or join pseudostates.
    @usableFromInline let targets: [Int32]
    @usableFromInline let kind: TransitionKind
    @usableFromInline let terminates: Bool
    @usableFromInline let guardBody: MachineGuard<Model>?
    @usableFromInline let action: MachineCallback<Model>?
    /// The paths of the source and targets, for the `Transition` callbacks receive.
    @usableFromInline let sourcePath: String
    @usableFromInline let targetPaths: [String]
  }

  /// One path of a junction (S17c), resolved.
  @usableFromInline
  struct Path {
    @usableFromInline let target: Int32
    @usableFromInline let guardBody: MachineGuard<Model>?
    @usableFromInline let action: MachineCallback<Model>?
  }

  @usableFromInline let tree: StateTree
  @usableFromInline let transitions: [ChartTransition]
  /// Per state, its transitions in declaration order.
  @usableFromInline
  let transitionsFrom: [[Int32]]
  /// The wildcard transitions, which belong to the root.
  @usableFromInline
  let rootTransitions: [Int32]
  /// Per compound state, the states it enters by default (S11); for the root, `rootInitial`.
  @usableFromInline
  let initial: [[Int32]]
  @usableFromInline
  let rootInitial: [Int32]
  @usableFromInline let initialActions: [MachineCallback<Model>?]
  @usableFromInline let rootInitialAction: MachineCallback<Model>?
  /// Per history pseudostate, its default targets and action (S15).
  @usableFromInline
  let historyDefaults: [[Int32]]
  @usableFromInline
  let historyActions: [MachineCallback<Model>?]
  /// Per state, its history pseudostates.
  @usableFromInline
  let historyChildren: [[Int32]]
  /// Per junction, its paths in order.
  @usableFromInline
  let junctionPaths: [[Path]]
  /// Per join, its target and the sources of the transitions to it (S17b).
  @usableFromInline
  let joinTargets: [Int32]
  @usableFromInline
  let joinSources: [[Int32]]
  /// Per compound or parallel state, the index of its `done.state.<path>` event, or -1 when no
  /// transition handles it (then it is not raised).
  @usableFromInline
  let doneEvents: [Int32]
  /// Whether any transition is eventless: only then does a microstep look for them.
  @usableFromInline
  let hasEventless: Bool
  /// The most eventless microsteps per event (S12).
  @usableFromInline let maxEventlessMicrosteps: Int
  /// No parallel state: one active leaf, kept in the storage's state index (§6).
  @usableFromInline let isNested: Bool
  /// The planned slots of the nested shape, or of a parallel chart with few configurations.
  ///
  /// Planning reads the chart, so ``compile(_:tree:events:)`` returns a chart without plans and
  /// ``init(_:plans:hasTriggers:)`` makes the one that is kept.
  @usableFromInline let plans: StepPlans
  /// For the nested shape: whether the per-object extras must hold the configuration record
  /// (history pseudostates or triggers need it); otherwise the state index is all.
  @usableFromInline let nestedNeedsRecord: Bool
  /// Whether any state arms a timeout or notification (S18): only then are entry serials kept.
  @usableFromInline let hasTriggers: Bool

  @usableFromInline var count: Int { tree.count }

  init(
    tree: StateTree, transitions: [ChartTransition], initial: [[Int32]], rootInitial: [Int32],
    initialActions: [MachineCallback<Model>?], rootInitialAction: MachineCallback<Model>?,
    historyDefaults: [[Int32]], historyActions: [MachineCallback<Model>?], junctionPaths: [[Path]],
    joinTargets: [Int32], joinSources: [[Int32]], doneEvents: [Int32], maxEventlessMicrosteps: Int
  ) {
    self.tree = tree
    self.transitions = transitions
    // Each state's list is made at its final size (growing them one append at a time cost a
    // large definition several allocations per state).
    var counts = [Int](repeating: 0, count: tree.count)
    for transition in transitions where transition.source != -1 { counts[Int(transition.source)] += 1 }
    var from = counts.map { count in
      var list: [Int32] = []
      list.reserveCapacity(count)
      return list
    }
    var root: [Int32] = []
    for (index, transition) in transitions.enumerated() {
      if transition.source == -1 { root.append(Int32(index)) } else { from[Int(transition.source)].append(Int32(index)) }
    }
    transitionsFrom = from
    rootTransitions = root
    self.initial = initial
    self.rootInitial = rootInitial
    self.initialActions = initialActions
    self.rootInitialAction = rootInitialAction
    self.historyDefaults = historyDefaults
    self.historyActions = historyActions
    historyChildren = (0..<tree.count).map { state in
      tree.children[state].filter { if case .history = tree.kinds[Int($0)] { return true } else { return false } }
    }
    self.junctionPaths = junctionPaths
    self.joinTargets = joinTargets
    self.joinSources = joinSources
    self.doneEvents = doneEvents
    hasEventless = transitions.contains { $0.event == -1 }
    isNested = !tree.kinds.contains(.parallel)
    nestedNeedsRecord = tree.kinds.contains { if case .history = $0 { return true } else { return false } }
    self.maxEventlessMicrosteps = maxEventlessMicrosteps
    plans = StepPlans()
    hasTriggers = false
  }

  /// `unplanned` (as ``compile(_:tree:events:)`` returns it) with its step plans, worked out from
  /// it, and whether any state arms a trigger: the chart a definition keeps. Every property is a
  /// `let`, so the chart never changes once shared.
  init(_ unplanned: Statechart, plans: StepPlans, hasTriggers: Bool) {
    tree = unplanned.tree
    transitions = unplanned.transitions
    transitionsFrom = unplanned.transitionsFrom
    rootTransitions = unplanned.rootTransitions
    initial = unplanned.initial
    rootInitial = unplanned.rootInitial
    initialActions = unplanned.initialActions
    rootInitialAction = unplanned.rootInitialAction
    historyDefaults = unplanned.historyDefaults
    historyActions = unplanned.historyActions
    historyChildren = unplanned.historyChildren
    junctionPaths = unplanned.junctionPaths
    joinTargets = unplanned.joinTargets
    joinSources = unplanned.joinSources
    doneEvents = unplanned.doneEvents
    hasEventless = unplanned.hasEventless
    maxEventlessMicrosteps = unplanned.maxEventlessMicrosteps
    isNested = unplanned.isNested
    self.plans = plans
    self.hasTriggers = hasTriggers
    // Triggers check their state's entry record, which in the nested shape then lives in the extras.
    nestedNeedsRecord = unplanned.nestedNeedsRecord || (unplanned.isNested && hasTriggers)
  }

  // MARK: Shape queries (SCXML D: isAtomicState, isCompoundState, …)

  @inlinable
  func kind(_ state: Int32) -> StateTree.Kind { tree.kinds[Int(state)] }

  /// Atomic for selection: no child states (final states included).
  @inlinable
  func isAtomic(_ state: Int32) -> Bool {
    let kind = kind(state)
    return kind == .atomic || kind == .final
  }

  @inlinable
  func isCompound(_ state: Int32) -> Bool { state >= 0 && kind(state) == .compound }
  @inlinable
  func isParallel(_ state: Int32) -> Bool { state >= 0 && kind(state) == .parallel }

  @inlinable
  func isHistory(_ state: Int32) -> Bool {
    if case .history = kind(state) { return true }
    return false
  }

  /// The active states of the nested shape when `leaf` is the active leaf: it and its ancestors.
  @usableFromInline
  func activeStates(leaf: Int32) -> StateSet {
    var active = StateSet(capacity: count)
    var state = leaf
    while state >= 0 && Int(state) < count {
      active.insert(state)
      state = tree.parents[Int(state)]
    }
    return active
  }

  /// The transitions declared on `state` (-1: the wildcards).
  @inlinable
  func transitions(from state: Int32) -> [Int32] {
    state == -1 ? rootTransitions : transitionsFrom[Int(state)]
  }
}

extension Statechart {
  /// Resolves and validates `store` (N4–N7, S11, S17, S20).
  static func compile(
    _ store: BuilderStore<Model>, tree: StateTree, events: EventNames
  ) throws(DefinitionError) -> Statechart<Model> {
    func resolve(_ reference: StateReference, _ context: @autoclosure () -> String) throws(DefinitionError) -> Int32 {
      try tree.resolve(reference, context: context())
    }
    func resolve(_ text: String, in declared: Int, _ context: @autoclosure () -> String) throws(DefinitionError) -> Int32 {
      try tree.resolve(.name(text, scope: declared), context: context())
    }
    let count = tree.count
    func node(_ state: Int32) -> DeclaredNode<Model> { store.nodes[tree.declaredOf[Int(state)]] }
    // The culprit of an error about a node, for a loader to locate.
    func culprit(_ state: Int32) -> DefinitionCulprit { .node(tree.declaredOf[Int(state)], path: tree.paths[Int(state)]) }

    // Initial states (S11): a descendant at any depth, or one per region; default: first child.
    var initial = [[Int32]](repeating: [], count: count)
    var initialActions = [MachineCallback<Model>?](repeating: nil, count: count)
    for state in 0..<Int32(count) {
      // A final state is atomic (S16): one declared with children (a compound state redeclared
      // final, N6) is refused rather than entered with an empty configuration.
      if tree.kinds[Int(state)] == .final && !tree.children[Int(state)].isEmpty {
        throw store.failure(
          .invalidStructure("final state '\(tree.paths[Int(state)])' has children; a final state is atomic"), culprit(state))
      }
      let declared = node(state)
      initialActions[Int(state)] = declared.initialAction
      guard tree.kinds[Int(state)] == .compound else {
        if !declared.initial.isEmpty && tree.kinds[Int(state)] != .compound {
          throw store.failure(
            .invalidStructure("initialState of '\(tree.paths[Int(state)])': only a compound state has an initial state"),
            .initial(of: tree.declaredOf[Int(state)], path: tree.paths[Int(state)], entry: nil))
        }
        continue
      }
      let node = tree.declaredOf[Int(state)]
      initial[Int(state)] = try initialTargets(
        declared.initial.enumerated().map { entry, text throws(DefinitionError) in
          try store.blaming(.initial(of: node, path: tree.paths[Int(state)], entry: entry)) { () throws(DefinitionError) in
            try resolve(text, in: node, "initialState of '\(tree.paths[Int(state)])'")
          }
        }, of: state, tree: tree, store: store)
    }
    let rootInitial = try initialTargets(
      store.rootInitial.enumerated().map { entry, text throws(DefinitionError) in
        try store.blaming(.initial(of: -1, path: "", entry: entry)) { () throws(DefinitionError) in
          try resolve(text, in: -1, "initialState")
        }
      }, of: -1, tree: tree, store: store)

    // Pseudostates.
    var historyDefaults = [[Int32]](repeating: [], count: count)
    var historyActions = [MachineCallback<Model>?](repeating: nil, count: count)
    var junctionPaths = [[Path]](repeating: [], count: count)
    var joinTargets = [Int32](repeating: -1, count: count)
    for state in 0..<Int32(count) {
      let declared = node(state)
      let path = tree.paths[Int(state)]
      let parent = tree.parents[Int(state)]
      switch tree.kinds[Int(state)] {
      case .history:
        guard parent >= 0, tree.kinds[Int(parent)] == .compound || tree.kinds[Int(parent)] == .parallel else {
          throw store.failure(
            .invalidStructure("history '\(path)' must be the child of a compound or parallel state"), culprit(state))
        }
        var defaults: [Int32] = []
        for (entry, text) in declared.targets.enumerated() {
          let blamed = DefinitionCulprit.historyDefault(of: tree.declaredOf[Int(state)], path: path, entry: entry)
          let target = try store.blaming(blamed) { () throws(DefinitionError) in
            try resolve(text, in: tree.declaredOf[Int(parent)], "the default of history '\(path)'")
          }
          guard tree.isDescendant(target, of: parent) else {
            throw store.failure(
              .invalidStructure("the default '\(tree.paths[Int(target)])' of history '\(path)' is outside its parent"), blamed)
          }
          defaults.append(target)
        }
        // Without defaults: the parent's initial (XState v5, UML), or every region of a parallel.
        if defaults.isEmpty {
          defaults = tree.kinds[Int(parent)] == .parallel ? tree.stateChildren(of: parent) : initial[Int(parent)]
        }
        historyDefaults[Int(state)] = defaults
        historyActions[Int(state)] = declared.defaultAction
      case .junction:
        guard !declared.junctionPaths.isEmpty else {
          throw store.failure(.invalidStructure("junction '\(path)' has no paths"), culprit(state))
        }
        junctionPaths[Int(state)] = try declared.junctionPaths.enumerated().map { index, junctionPath throws(DefinitionError) in
          let blamed = DefinitionCulprit.junctionPath(of: tree.declaredOf[Int(state)], path: path, index: index)
          let target = try store.blaming(blamed) { () throws(DefinitionError) in
            try resolve(junctionPath.target, "a path of junction '\(path)'")
          }
          guard tree.kinds[Int(target)] != .junction && tree.kinds[Int(target)] != .join else {
            throw store.failure(
              .invalidStructure("a path of junction '\(path)' leads to pseudostate '\(tree.paths[Int(target)])'"), blamed)
          }
          return Path(target: target, guardBody: junctionPath.guardBody, action: junctionPath.action)
        }
      case .join:
        guard let target = declared.targets.first else {
          throw store.failure(.invalidStructure("join '\(path)' has no target"), culprit(state))
        }
        joinTargets[Int(state)] = try store.blaming(culprit(state)) { () throws(DefinitionError) in
          try resolve(target, in: tree.declaredOf[Int(state)], "join '\(path)'")
        }
      default:
        break
      }
    }

    // Transitions.
    var transitions: [ChartTransition] = []
    transitions.reserveCapacity(store.transitions.count)
    var joinSources = [[Int32]](repeating: [], count: count)
    // The transition that brings each join source, to locate an error about it.
    var joinSourceTransitions = [[Int]](repeating: [], count: count)
    for (transitionIndex, spec) in store.transitions.enumerated() {
      // Made only for an error message (a local function: a closure value was a heap allocation
      // per transition).
      func context() -> String { spec.isEventless ? "an eventless transition" : "transition '\(spec.event)'" }
      // The transition as declared, the culprit of any error about it.
      func declared() -> Int { store.declaredIndex(ofTransition: transitionIndex) }
      let targets = try spec.to.enumerated().map { index, reference throws(DefinitionError) in
        try store.blaming(.transition(declared(), target: index)) { () throws(DefinitionError) in
          try resolve(reference, context())
        }
      }
      try checkFork(targets, tree: tree, context: context()) { error, a, b in
        store.failure(error, .transition(declared(), target: a), .transition(declared(), target: b))
      }
      if let timeout = spec.timeout, timeout < .zero {
        throw store.failure(.invalidValue("\(timeout)", context: "the timeout of \(context())"), .transition(declared(), target: nil))
      }
      // The sources are resolved one by one: an array of them per transition made a good part of
      // a large definition's allocations. `nil` is the root (a wildcard).
      for position in 0..<(spec.from?.count ?? 1) {
        let source = try store.blaming(.transition(declared(), target: nil)) { () throws(DefinitionError) in
          try spec.from.map { list throws(DefinitionError) in try resolve(list[position], context()) } ?? -1
        }
        // `internal: true` (or `kind: .internal`) stays in its state: a target must be the source.
        if spec.isInternal && !spec.terminates && targets.contains(where: { $0 != source }) {
          throw store.failure(.internalTransitionChangesState(event: spec.event), .transition(declared(), target: nil))
        }
        if source >= 0 && tree.kinds[Int(source)].isPseudostate {
          throw store.failure(
            .invalidStructure("\(context()) leaves pseudostate '\(tree.paths[Int(source)])'; only states are sources"),
            .transition(declared(), target: nil))
        }
        let event: Int32
        if spec.isEventless {
          event = -1
        } else if spec.isDoneTransition {
          guard source >= 0, tree.kinds[Int(source)] == .compound || tree.kinds[Int(source)] == .parallel else {
            throw store.failure(
              .invalidStructure("whenDone names '\(tree.path(source))', which is not a compound or parallel state"),
              .transition(declared(), target: nil))
          }
          event = events.add(doneEventName(of: source, tree: tree))
        } else {
          if spec.event.isEmpty {
            throw store.failure(.emptyName(context: "a transition's event"), .transition(declared(), target: nil))
          }
          event = events.add(spec.event)
        }
        for target in targets where tree.kinds[Int(target)] == .join {
          if !joinSources[Int(target)].contains(source) {
            joinSources[Int(target)].append(source)
            joinSourceTransitions[Int(target)].append(declared())
          }
        }
        // `internal: true` to the source itself is targetless.
        let effectiveTargets = spec.isInternal ? [] : targets
        transitions.append(
          ChartTransition(
            source: source, event: event, targets: effectiveTargets, kind: spec.isInternal ? .internal : spec.kind,
            terminates: spec.terminates, guardBody: spec.guardBody, action: spec.action,
            sourcePath: tree.path(source), targetPaths: effectiveTargets.map { tree.paths[Int($0)] }))
      }
    }
    for join in 0..<Int32(count) where tree.kinds[Int(join)] == .join {
      try checkJoin(join, sources: joinSources[Int(join)], transitions: joinSourceTransitions[Int(join)], tree: tree, store: store)
    }
    var doneEvents = [Int32](repeating: -1, count: count)
    for state in 0..<Int32(count) where tree.kinds[Int(state)] == .compound || tree.kinds[Int(state)] == .parallel {
      doneEvents[Int(state)] = events.index[doneEventName(of: state, tree: tree)] ?? -1
    }
    return Statechart(
      tree: tree, transitions: transitions, initial: initial, rootInitial: rootInitial,
      initialActions: initialActions, rootInitialAction: store.rootInitialAction, historyDefaults: historyDefaults,
      historyActions: historyActions, junctionPaths: junctionPaths, joinTargets: joinTargets, joinSources: joinSources,
      doneEvents: doneEvents, maxEventlessMicrosteps: store.maxEventlessMicrosteps)
  }

  /// The event raised when `state` is done (S16).
  static func doneEventName(of state: Int32, tree: StateTree) -> String {
    "done.state.\(tree.paths[Int(state)])"
  }
}

/// The events of a statechart, in the order of their first transition.
final class EventNames {
  private(set) var names: [String] = []
  private(set) var index: [String: Int32] = [:]

  /// The index of `name`, added if new.
  @usableFromInline
  func add(_ name: String) -> Int32 {
    if let existing = index[name] { return existing }
    names.append(name)
    index[name] = Int32(names.count - 1)
    return Int32(names.count - 1)
  }
}
