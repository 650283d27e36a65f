/// A hierarchical definition as tables in document order (HIERARCHY.md §6): what the statechart
/// step (SCXML Appendix D on indices) reads. Built once per definition, when the builder declares
/// nested or parallel states, pseudostates, eventless transitions or forks; a flat definition has
/// none and keeps the flat tables.
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
  @usableFromInline @exclusivity(unchecked)
  var maxEventlessMicrosteps = 1_000
  /// No parallel state: one active leaf, kept in the storage's state index (§6).
  @usableFromInline let isNested: Bool
  /// The planned slots of the nested shape, or of a parallel chart with few configurations.
  ///
  /// This and the other `var`s are set once, while compiling, before the chart is shared: the
  /// dynamic exclusivity check would only slow every step.
  @usableFromInline @exclusivity(unchecked) var plans = StepPlans()
  /// For the nested shape: whether the per-object extras must hold the configuration record
  /// (history pseudostates or triggers need it); otherwise the state index is all.
  @usableFromInline @exclusivity(unchecked) var nestedNeedsRecord: Bool
  /// Whether any state arms a timeout or notification (S18): only then are entry serials kept.
  @usableFromInline @exclusivity(unchecked) var hasTriggers = false

  @usableFromInline var count: Int { tree.count }

  init(
    tree: StateTree, transitions: [ChartTransition], initial: [[Int32]], rootInitial: [Int32],
    initialActions: [MachineCallback<Model>?], rootInitialAction: MachineCallback<Model>?,
    historyDefaults: [[Int32]], historyActions: [MachineCallback<Model>?], junctionPaths: [[Path]],
    joinTargets: [Int32], joinSources: [[Int32]], doneEvents: [Int32]
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

    // Initial states (S11): a descendant at any depth, or one per region; default: first child.
    var initial = [[Int32]](repeating: [], count: count)
    var initialActions = [MachineCallback<Model>?](repeating: nil, count: count)
    for state in 0..<Int32(count) {
      // A final state is atomic (S16): one declared with children (a compound state redeclared
      // final, N6) is refused rather than entered with an empty configuration.
      if tree.kinds[Int(state)] == .final && !tree.children[Int(state)].isEmpty {
        throw .invalidStructure("final state '\(tree.paths[Int(state)])' has children; a final state is atomic")
      }
      let declared = node(state)
      initialActions[Int(state)] = declared.initialAction
      guard tree.kinds[Int(state)] == .compound else {
        if !declared.initial.isEmpty && tree.kinds[Int(state)] != .compound {
          throw .invalidStructure("initialState of '\(tree.paths[Int(state)])': only a compound state has an initial state")
        }
        continue
      }
      initial[Int(state)] = try initialTargets(
        declared.initial.map { text throws(DefinitionError) in
          try resolve(text, in: tree.declaredOf[Int(state)], "initialState of '\(tree.paths[Int(state)])'")
        }, of: state, tree: tree)
    }
    let rootInitial = try initialTargets(
      store.rootInitial.map { text throws(DefinitionError) in try resolve(text, in: -1, "initialState") }, of: -1, tree: tree)

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
          throw .invalidStructure("history '\(path)' must be the child of a compound or parallel state")
        }
        var defaults: [Int32] = []
        for text in declared.targets {
          let target = try resolve(text, in: tree.declaredOf[Int(parent)], "the default of history '\(path)'")
          guard tree.isDescendant(target, of: parent) else {
            throw .invalidStructure("the default '\(tree.paths[Int(target)])' of history '\(path)' is outside its parent")
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
        guard !declared.junctionPaths.isEmpty else { throw .invalidStructure("junction '\(path)' has no paths") }
        junctionPaths[Int(state)] = try declared.junctionPaths.map { junctionPath throws(DefinitionError) in
          let target = try resolve(junctionPath.target, "a path of junction '\(path)'")
          guard tree.kinds[Int(target)] != .junction && tree.kinds[Int(target)] != .join else {
            throw .invalidStructure("a path of junction '\(path)' leads to pseudostate '\(tree.paths[Int(target)])'")
          }
          return Path(target: target, guardBody: junctionPath.guardBody, action: junctionPath.action)
        }
      case .join:
        guard let target = declared.targets.first else { throw .invalidStructure("join '\(path)' has no target") }
        joinTargets[Int(state)] = try resolve(target, in: tree.declaredOf[Int(state)], "join '\(path)'")
      default:
        break
      }
    }

    // Transitions.
    var transitions: [ChartTransition] = []
    transitions.reserveCapacity(store.transitions.count)
    var joinSources = [[Int32]](repeating: [], count: count)
    for spec in store.transitions {
      // Made only for an error message (a local function: a closure value was a heap allocation
      // per transition).
      func context() -> String { spec.isEventless ? "an eventless transition" : "transition '\(spec.event)'" }
      let targets = try spec.to.map { reference throws(DefinitionError) in try resolve(reference, context()) }
      try checkFork(targets, tree: tree, context: context())
      if let timeout = spec.timeout, timeout < .zero {
        throw .invalidValue("\(timeout)", context: "the timeout of \(context())")
      }
      // The sources are resolved one by one: an array of them per transition made a good part of
      // a large definition's allocations. `nil` is the root (a wildcard).
      for position in 0..<(spec.from?.count ?? 1) {
        let source = try spec.from.map { list throws(DefinitionError) in try resolve(list[position], context()) } ?? -1
        // `internal: true` (or `kind: .internal`) stays in its state: a target must be the source.
        if spec.isInternal && !spec.terminates && targets.contains(where: { $0 != source }) {
          throw .internalTransitionChangesState(event: spec.event)
        }
        if source >= 0 && tree.kinds[Int(source)].isPseudostate {
          throw .invalidStructure("\(context()) leaves pseudostate '\(tree.paths[Int(source)])'; only states are sources")
        }
        let event: Int32
        if spec.isEventless {
          event = -1
        } else if spec.isDoneTransition {
          guard source >= 0, tree.kinds[Int(source)] == .compound || tree.kinds[Int(source)] == .parallel else {
            throw .invalidStructure("whenDone names '\(tree.path(source))', which is not a compound or parallel state")
          }
          event = events.add(doneEventName(of: source, tree: tree))
        } else {
          if spec.event.isEmpty { throw .emptyName(context: "a transition's event") }
          event = events.add(spec.event)
        }
        for target in targets where tree.kinds[Int(target)] == .join {
          if !joinSources[Int(target)].contains(source) { joinSources[Int(target)].append(source) }
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
      try checkJoin(join, sources: joinSources[Int(join)], tree: tree)
    }
    var doneEvents = [Int32](repeating: -1, count: count)
    for state in 0..<Int32(count) where tree.kinds[Int(state)] == .compound || tree.kinds[Int(state)] == .parallel {
      doneEvents[Int(state)] = events.index[doneEventName(of: state, tree: tree)] ?? -1
    }
    return Statechart(
      tree: tree, transitions: transitions, initial: initial, rootInitial: rootInitial,
      initialActions: initialActions, rootInitialAction: store.rootInitialAction, historyDefaults: historyDefaults,
      historyActions: historyActions, junctionPaths: junctionPaths, joinTargets: joinTargets, joinSources: joinSources,
      doneEvents: doneEvents)
  }

  /// The event raised when `state` is done (S16).
  static func doneEventName(of state: Int32, tree: StateTree) -> String {
    "done.state.\(tree.paths[Int(state)])"
  }

  /// The initial targets of `state` (-1: the root): `declared`, checked to be descendants in
  /// distinct regions, or the first child state.
  private static func initialTargets(_ declared: [Int32], of state: Int32, tree: StateTree) throws(DefinitionError) -> [Int32] {
    let name = state == -1 ? "the machine" : "'\(tree.paths[Int(state)])'"
    if declared.isEmpty {
      guard let first = tree.stateChildren(of: state).first else {
        throw state == -1 ? .noStates : .invalidStructure("\(name) has no child states")
      }
      return [first]
    }
    for target in declared where !tree.isDescendant(target, of: state) {
      throw .invalidStructure("the initial state '\(tree.paths[Int(target)])' of \(name) is not inside it")
    }
    try checkFork(declared, tree: tree, context: "the initial states of \(name)")
    return declared
  }

  /// Several targets must lie in distinct regions of parallel states (S17a, S20).
  private static func checkFork(
    _ targets: [Int32], tree: StateTree, context: @autoclosure () -> String
  ) throws(DefinitionError) {
    guard targets.count > 1 else { return }
    for (i, a) in targets.enumerated() {
      for b in targets[(i + 1)...] {
        // The nearest common ancestor of a and b must be parallel, with a and b in different regions.
        var common = tree.parents[Int(a)]
        while common != -1 && !(tree.isDescendant(b, of: common)) { common = tree.parents[Int(common)] }
        if a == b || tree.isDescendant(a, of: b) || tree.isDescendant(b, of: a) || common == -1
          || tree.kinds[Int(common)] != .parallel
        {
          throw .invalidStructure(
            "\(context()): '\(tree.paths[Int(a)])' and '\(tree.paths[Int(b)])' are not in distinct regions of one parallel state")
        }
      }
    }
  }

  /// The sources of a join must lie in distinct regions of one parallel state (S17b, S20).
  private static func checkJoin(_ join: Int32, sources: [Int32], tree: StateTree) throws(DefinitionError) {
    let path = tree.paths[Int(join)]
    guard sources.count >= 2, !sources.contains(-1) else {
      throw .invalidStructure("join '\(path)' needs transitions from at least two states in distinct regions")
    }
    try checkFork(sources, tree: tree, context: "the sources of join '\(path)'")
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
