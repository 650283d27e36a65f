// The machine the path explorer runs: the definition's states and transitions with its code
// replaced, so that the real runtime computes every configuration a path reaches.

/// A definition's skeleton: the same states, transitions and semantics on `DynamicStateMachine`
/// objects, whose guards the ``PathOracle`` answers and whose transitions report themselves.
/// Callbacks and actions do not run, and no trigger is armed: the explorer delivers timeouts and
/// invoke results as steps of their own.
struct PathSkeleton {
  /// One transition of the definition (repeats dropped), as declared.
  struct TransitionInfo: Sendable {
    let event: String
    let from: [String]?
    let to: [String]
    let isGuarded: Bool
    let timeout: Duration?
    let isEventless: Bool

    /// `from –event→ to`, as written in the definition.
    var description: String { description(from: nil) }

    /// `from –event→ to` for one of its sources (`nil`: all of them).
    func description(from one: String?) -> String {
      let source = one ?? from?.joined(separator: ", ") ?? "*"
      let target = to.isEmpty ? source : to.joined(separator: ", ")
      let label = isEventless ? "(eventless)" : event
      return "\(source) –\(label)→ \(target)"
    }
  }

  let definition: StateMachineDefinition<DynamicStateMachine>
  let oracle: PathOracle
  let transitions: [TransitionInfo]
  /// What a cover takes: each transition, once per source state when it names several (a
  /// transition from `active` and `suspended` is two edges of the diagram, and two targets).
  let edges: [(transition: Int, source: String?)]
  /// Per transition with several sources, the edge of each source's canonical path.
  private let edgeOfSource: [Int: [String: Int]]
  /// Per transition, its first edge.
  private let firstEdge: [Int]
  /// Per edge, its name; per transition, the name of its guard's outcomes. Two declarations that
  /// read the same (`s1 –e→ s1`, once internal and once external) are told apart by a number.
  private let edgeNames: [String]
  private let transitionNames: [String]
  /// The junction paths that have a guard, with a name for each.
  let junctionGuards: [PathOracle.GuardedTransition: String]
  /// The callbacks written as code, which the skeleton does not run (``StateMachinePaths/unseenCallbacks``).
  let unseenCallbacks: [String]

  /// The skeleton of `original`. With `evaluatingGuards`, a guard of a `DynamicStateMachine`
  /// definition is called as it is (on the skeleton's object, whose states are the same), and
  /// recorded; otherwise every guard is the oracle's to decide.
  init<Model>(_ original: StateMachineDefinition<Model>, evaluatingGuards: Bool) throws(DefinitionError) {
    try original.validate()
    let oracle = PathOracle()
    let declarations = original.declarations
    var junctions: [PathOracle.GuardedTransition: String] = [:]
    for (node, declared) in declarations.nodes.enumerated() {
      for (path, junction) in declared.junctionPaths.enumerated() where junction.guardBody != nil {
        junctions[.junction(node: node, path: path)] = "junction \(declared.name) → \(junction.target.text)"
      }
    }
    func decided(_ guarded: PathOracle.GuardedTransition, _ body: MachineGuard<Model>?) -> MachineGuard<DynamicStateMachine>? {
      if evaluatingGuards, let evaluated = body as? MachineGuard<DynamicStateMachine> {
        return .withTransition { object, transition in
          let holds = try evaluated(object, transition)
          oracle.record(guarded, holds)
          return holds
        }
      }
      return .plain { _ in oracle.answer(guarded) }
    }
    // Raises and sends run on the skeleton's object as at run time; delayed sends wait in the
    // oracle, which the explorer delivers as steps of their own.
    let target = DeclaredActionTarget<DynamicStateMachine>(
      raise: { object, event in object.fire(event) },
      send: { object, event in object.post(event) },
      sendLater: { object, event, delay, id in
        // The runtime refuses an unknown event at once: nothing waits for it.
        if object.stateMachineDefinition.eventIndex(event) != nil { oracle.sendLater(event, after: delay, id: id) }
      },
      cancel: { _, id in oracle.cancel(id) },
      isActive: { object, state in object.isInState(state) })
    let store = declarations.skeleton(
      guards: { index, spec in decided(.transition(index), spec.guardBody) },
      junctionGuards: { node, path in decided(.junction(node: node, path: path), declarations.nodes[node].junctionPaths[path].guardBody) },
      taken: { oracle.took($0, from: $1) }, actions: target)
    self.definition = StateMachineDefinition<DynamicStateMachine> { $0.store = store }
    try definition.validate()
    self.oracle = oracle
    // A reference to a declared node itself (a scoped builder's `when`) is named by the node's
    // path of declared names.
    func name(_ reference: StateReference) -> String {
      guard case .node(let node) = reference else { return reference.text }
      var parts: [String] = []
      var current = node
      while current >= 0 {
        parts.insert(declarations.nodes[current].name, at: 0)
        current = declarations.nodes[current].scope
      }
      return parts.joined(separator: "/")
    }
    self.transitions = declarations.transitions.map { spec in
      TransitionInfo(
        event: spec.event, from: spec.from.map { $0.map(name) }, to: spec.to.map(name),
        isGuarded: spec.guardBody != nil, timeout: spec.timeout, isEventless: spec.isEventless)
    }
    self.junctionGuards = junctions
    self.unseenCallbacks = Self.unseenCallbacks(of: declarations, transitions: transitions, name: name)
    var edges: [(transition: Int, source: String?)] = []
    var edgeOfSource: [Int: [String: Int]] = [:]
    var firstEdge: [Int] = []
    for (index, transition) in transitions.enumerated() {
      firstEdge.append(edges.count)
      guard let sources = transition.from, sources.count > 1 else {
        edges.append((index, nil))
        continue
      }
      for source in sources {
        let state = Self.index(of: source, in: definition)
        let canonical = state >= 0 ? definition.stateName(state) : source
        edgeOfSource[index, default: [:]][canonical] = edges.count
        edges.append((index, canonical))
      }
    }
    self.edges = edges
    self.edgeOfSource = edgeOfSource
    self.firstEdge = firstEdge
    let infos = self.transitions
    self.edgeNames = Self.distinct(edges.map { infos[$0.transition].description(from: $0.source) })
    self.transitionNames = Self.distinct(infos.map(\.description))
  }

  /// The callbacks of `declarations` written as code, in declaration order: whatever events they
  /// fire, the explorer cannot see.
  private static func unseenCallbacks<Model>(
    of declarations: BuilderStore<Model>, transitions: [TransitionInfo], name: (StateReference) -> String
  ) -> [String] {
    var unseen: [String] = []
    for (spec, info) in zip(declarations.transitions, transitions)
    where spec.action != nil && (spec.actionHasCode || spec.declaredActions.isEmpty) {
      unseen.append("action of \(info.description)")
    }
    unseen += declarations.entryActions.filter { $0.declared == nil }.map { "entry action of \(name($0.state))" }
    unseen += declarations.exitActions.filter { $0.declared == nil }.map { "exit action of \(name($0.state))" }
    unseen += declarations.beforeCallbacks.map { "before '\($0.name)'" }
    unseen += declarations.afterCallbacks.map { "after '\($0.name)'" }
    if !declarations.observers.isEmpty { unseen.append("didTransition observers") }
    if declarations.rootInitialAction != nil && declarations.rootInitialDeclared == nil { unseen.append("initial action") }
    for (node, declared) in declarations.nodes.enumerated() {
      let path = name(.node(node))
      if declared.initialAction != nil && declared.initialDeclared == nil { unseen.append("initial action of \(path)") }
      if declared.defaultAction != nil && declared.defaultDeclared == nil { unseen.append("default action of \(path)") }
      if declared.junctionPaths.contains(where: { $0.action != nil && (ActionEntry.hasCode($0.actionEntries) || $0.actionEntries.isEmpty) }) { unseen.append("junction actions of \(path)") }
    }
    return unseen
  }

  /// The index of the state `name` names: a canonical path or name, or a name a statechart
  /// resolves (N5); -1 if none.
  static func index(of name: String, in definition: StateMachineDefinition<DynamicStateMachine>) -> Int32 {
    definition.compiled.stateTable.index(of: name) ?? definition.stateIndex(resolving: name)
  }

  /// `names`, each repeat numbered: `a`, `a (2)`, `a (3)`.
  private static func distinct(_ names: [String]) -> [String] {
    var seen: [String: Int] = [:]
    return names.map { name in
      let count = seen[name, default: 0] + 1
      seen[name] = count
      return count == 1 ? name : "\(name) (\(count))"
    }
  }

  /// The edge transition `index` took leaving `source`.
  func edge(_ index: Int, from source: String) -> Int {
    edgeOfSource[index]?[source] ?? firstEdge[index]
  }

  /// An edge's name: `from –event→ to`, with its one source.
  func name(ofEdge edge: Int) -> String { edgeNames[edge] }

  /// What a guard is called in a path.
  func name(of guarded: PathOracle.GuardedTransition) -> String {
    switch guarded {
    case .transition(let index): return transitionNames[index]
    case .junction: return junctionGuards[guarded] ?? "junction"
    }
  }
}
