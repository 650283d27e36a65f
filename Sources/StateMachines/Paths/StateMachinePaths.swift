// Tests computed from the machine: the configurations it reaches and paths through them, found
// by running the real runtime on the definition's skeleton.

/// The paths through a definition: to every configuration it reaches, across every transition and
/// guard outcome, or between two states. Made from the definition alone, without an object:
/// guards are closures on the model, so the explorer tries both outcomes of each (a guarded
/// transition is two targets, the guard holding and failing), and a path says which outcome each
/// of its steps needs.
///
/// ```swift
/// let paths = try StateMachinePaths(Order.stateMachine)
/// for path in paths.transitionCover().paths {
///   try await path.replay(on: { Order() }, coverage: coverage)
/// }
/// ```
///
/// Nodes are configurations, not state names: the active states of every region, the history
/// records and whether the machine has terminated. Steps are events, timeouts (`after:`
/// transitions) and invoke results; eventless transitions are part of the step that makes them
/// enabled. The explorer runs the real runtime on the definition's skeleton (the same states and
/// transitions, with code left out and declared actions kept), so what it finds is what the
/// runtime does: events raised and sent by ``DeclaredAction``s (SCXML `<raise>`, `<send>`,
/// `<cancel>`, `<if>`) are processed inside the step, as at run time, and delayed sends are timed
/// steps of their own. Callbacks written as code do not run: events they fire are invisible here
/// (``unseenCallbacks`` lists them), and a replay says where the object went elsewhere.
public struct StateMachinePaths: Sendable {
  /// Bounds that keep a large chart's answer quick; a result says when one was reached.
  public struct Limits: Sendable {
    /// The most configurations explored.
    public var maxConfigurations = 10_000
    /// The most steps in one path (starts not counted).
    public var maxLength = 1_000
    /// The most paths a generator makes.
    public var maxPaths = 10_000
    /// The most guard outcomes tried for one step from one configuration.
    public var maxGuardCombinations = 64
    /// The most delayed sends waiting at once in a configuration (they are part of it).
    public var maxPendingSends = 16

    public init() {}
  }

  private let graph: PathGraph
  private let limits: Limits

  /// Explores `definition`, trying both outcomes of every guard.
  /// - Throws: the definition's ``DefinitionError`` if it is invalid.
  public init<Model>(_ definition: StateMachineDefinition<Model>, limits: Limits = Limits()) throws(DefinitionError) {
    self.init(try PathSkeleton(definition, evaluatingGuards: false), limits)
  }

  /// Explores a definition built at run time or loaded from data, calling its guards as they are
  /// bound (on an object in the step's configuration) instead of trying both outcomes: SCXML
  /// `In()` conditions, or guards a tool binds to `true`.
  public init(
    evaluatingGuardsOf definition: StateMachineDefinition<DynamicStateMachine>, limits: Limits = Limits()
  ) throws(DefinitionError) {
    self.init(try PathSkeleton(definition, evaluatingGuards: true), limits)
  }

  private init(_ skeleton: PathSkeleton, _ limits: Limits) {
    self.graph = PathGraph(skeleton, limits: limits)
    self.limits = limits
  }

  /// The callbacks written as code (actions, entry and exit actions, `before` and `after`
  /// callbacks, observers), which the explorer does not run: an event one of them fires is not
  /// part of any path. Declared actions are not listed: the explorer runs them.
  public var unseenCallbacks: [String] { graph.skeleton.unseenCallbacks }

  /// Every configuration the machine reaches, in the order the exploration found them.
  public var configurations: [[String]] { graph.nodes.map(\.configuration) }

  /// Why the exploration stopped before it had seen every configuration, or `nil`.
  public var stoppedEarly: String? { graph.stoppedEarly }

  /// Every transition (`from –event→ to`, as declared) and guard outcome (`[transition]`,
  /// `[not transition]`) a cover aims to take.
  public var targets: [String] { allTargets.map(name) }

  /// The atomic states of the definition, as it names them.
  public var atomicStates: [String] {
    let definition = graph.skeleton.definition
    return definition.compiled.states.indices.filter { definition.compiled.engine.isAtomic(Int32($0)) }
      .map { definition.compiled.states[$0] }
  }

  /// Every transition, as declared (`from –event→ to`), once per source state when it names
  /// several.
  public var transitionNames: [String] { graph.skeleton.edges.indices.map(graph.skeleton.name(ofEdge:)) }

  /// Every outcome of every guard (`[transition]`, `[not transition]`).
  public var guardOutcomeNames: [String] {
    allTargets.compactMap { if case .guardOutcome = $0 { return name($0) } else { return nil } }
  }

  /// The transitions a timeout fires, as declared.
  public var timeoutNames: [String] {
    graph.skeleton.edges.indices.filter { graph.skeleton.transitions[graph.skeleton.edges[$0].transition].timeout != nil }
      .map(graph.skeleton.name(ofEdge:))
  }

  // MARK: Generators

  /// The shortest path to every reachable configuration, one per configuration, found
  /// breadth-first (so each is as short as any path to it).
  public func shortestPaths() -> StateMachinePathSet {
    let tree = shortestTree()
    var paths: [StateMachinePath] = []
    var stopped = graph.stoppedEarly
    for node in graph.nodes.indices {
      guard let edges = tree.path(to: node) else { continue }
      guard edges.count - 1 <= limits.maxLength else {
        stopped = stopped ?? "paths longer than \(limits.maxLength) steps left out (maxLength)"
        continue
      }
      guard paths.count < limits.maxPaths else {
        stopped = stopped ?? "stopped at \(limits.maxPaths) paths (maxPaths)"
        break
      }
      paths.append(path(edges))
    }
    return StateMachinePathSet(paths: paths, stoppedEarly: stopped, unreached: [], lowerBound: nil)
  }

  /// Paths that together take every reachable transition and guard outcome at least once, short
  /// in total: each path goes, breadth-first, to the nearest step that takes something not yet
  /// taken, and a new path starts when nothing is left within reach (a final state, say).
  public func transitionCover() -> StateMachinePathSet {
    var uncovered = Set(graph.edges.flatMap(targets(of:)))
    let reachable = uncovered
    var paths: [StateMachinePath] = []
    var stopped = graph.stoppedEarly
    while !uncovered.isEmpty {
      guard paths.count < limits.maxPaths else {
        stopped = stopped ?? "stopped at \(limits.maxPaths) paths (maxPaths)"
        break
      }
      var walked: [Int] = []
      var current: Int? = nil
      while let next = nearestUseful(from: current, uncovered) {
        guard walked.count + next.count - 1 <= limits.maxLength else {
          stopped = stopped ?? "a path reached \(limits.maxLength) steps (maxLength)"
          break
        }
        walked += next
        for edge in next { uncovered.subtract(targets(of: graph.edges[edge])) }
        current = graph.edges[next.last!].to
      }
      guard !walked.isEmpty else { break }
      paths.append(path(walked))
    }
    let most = graph.edges.map { targets(of: $0).count }.max() ?? 1
    let unreached = allTargets.filter { !reachable.contains($0) }.map(name)
    let bound = reachable.isEmpty ? 0 : (reachable.count + most - 1) / max(most, 1)
    return StateMachinePathSet(paths: paths, stoppedEarly: stopped, unreached: unreached, lowerBound: bound)
  }

  /// Paths from a configuration where `from` is active to one where `to` is active, each visiting
  /// no configuration twice after it reaches `from`, at most `maxLength` steps from there, and at
  /// most `maxCount` of them. Each starts with the shortest path to its first configuration.
  /// States are named as the definition names them (a statechart's canonical paths).
  public func simplePaths(from: String, to: String, maxLength: Int = 10, maxCount: Int = 100) -> StateMachinePathSet {
    let definition = graph.skeleton.definition
    let source = PathSkeleton.index(of: from, in: definition)
    let target = PathSkeleton.index(of: to, in: definition)
    guard maxLength > 0, maxCount > 0 else {
      return StateMachinePathSet(paths: [], stoppedEarly: graph.stoppedEarly, unreached: [], lowerBound: nil)
    }
    guard source >= 0, target >= 0 else {
      return StateMachinePathSet(
        paths: [], stoppedEarly: nil, unreached: [source < 0 ? from : to], lowerBound: nil)
    }
    let tree = shortestTree()
    var paths: [StateMachinePath] = []
    var stopped = graph.stoppedEarly
    var onPath = Set<Int>()
    var walked: [Int] = []
    func search(_ node: Int) {
      guard paths.count < maxCount else { return }
      for edge in graph.outgoing[node] where graph.edges[edge].accepted {
        let next = graph.edges[edge].to
        guard !onPath.contains(next) else { continue }
        walked.append(edge)
        if graph.isActive(target, in: next) {
          if paths.count < maxCount { paths.append(path(prefix + walked)) }
        }
        if walked.count < maxLength {
          onPath.insert(next)
          search(next)
          onPath.remove(next)
        }
        walked.removeLast()
      }
    }
    var prefix: [Int] = []
    for node in graph.nodes.indices where graph.isActive(source, in: node) {
      guard let reaching = tree.path(to: node) else { continue }
      prefix = reaching
      onPath = [node]
      search(node)
      if paths.count >= maxCount {
        stopped = stopped ?? "stopped at \(maxCount) paths (maxCount)"
        break
      }
    }
    return StateMachinePathSet(paths: paths, stoppedEarly: stopped, unreached: [], lowerBound: nil)
  }

  // MARK: Internals

  /// What a cover aims to take: a transition, or an outcome of a guard.
  private enum Target: Hashable {
    case transition(Int)
    case guardOutcome(PathOracle.GuardedTransition, Bool)
  }

  private var allTargets: [Target] {
    var all: [Target] = graph.skeleton.edges.indices.map { .transition($0) }
    for (index, transition) in graph.skeleton.transitions.enumerated() where transition.isGuarded {
      all += [.guardOutcome(.transition(index), true), .guardOutcome(.transition(index), false)]
    }
    for junction in graph.skeleton.junctionGuards.keys.sorted(by: { "\($0)" < "\($1)" }) {
      all += [.guardOutcome(junction, true), .guardOutcome(junction, false)]
    }
    return all
  }

  private func name(_ target: Target) -> String {
    switch target {
    case .transition(let edge): return graph.skeleton.name(ofEdge: edge)
    case .guardOutcome(let guarded, let holds): return "[\(holds ? "" : "not ")\(graph.skeleton.name(of: guarded))]"
    }
  }

  private func targets(of edge: PathGraph.Edge) -> [Target] {
    edge.taken.map { .transition($0) } + edge.guards.map { .guardOutcome($0.guarded, $0.holds) }
  }

  /// The edges of the shortest way to each node, breadth-first from the start.
  private struct ShortestTree {
    let reachedBy: [Int?]
    let edges: [PathGraph.Edge]

    func path(to node: Int) -> [Int]? {
      var result: [Int] = []
      var current = node
      while let edge = reachedBy[current] {
        result.append(edge)
        let from = edges[edge].from
        if from < 0 { return result.reversed() }
        current = from
      }
      return nil
    }
  }

  private func shortestTree() -> ShortestTree {
    var reachedBy = [Int?](repeating: nil, count: graph.nodes.count)
    var queue: [Int] = []
    for edge in graph.startEdges where reachedBy[graph.edges[edge].to] == nil {
      reachedBy[graph.edges[edge].to] = edge
      queue.append(graph.edges[edge].to)
    }
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      for edge in graph.outgoing[node] {
        let next = graph.edges[edge].to
        if reachedBy[next] == nil && !graph.startEdges.contains(where: { graph.edges[$0].to == next }) {
          reachedBy[next] = edge
          queue.append(next)
        }
      }
    }
    return ShortestTree(reachedBy: reachedBy, edges: graph.edges)
  }

  /// The edges from `node` (`nil`: the start) to the nearest edge that takes something in
  /// `uncovered`, breadth-first; `nil` if none is within reach.
  private func nearestUseful(from node: Int?, _ uncovered: Set<Target>) -> [Int]? {
    func useful(_ edge: Int) -> Bool { targets(of: graph.edges[edge]).contains(where: uncovered.contains) }
    var reachedBy: [Int: Int] = [:]
    var visited = Set<Int>()
    var queue: [Int] = []
    // The origin is visited first and never reached by an edge, so the chain stops there.
    func chain(to end: Int) -> [Int] {
      var result: [Int] = []
      var current = end
      while let edge = reachedBy[current] {
        result.append(edge)
        let from = graph.edges[edge].from
        if from < 0 { break }
        current = from
      }
      return result.reversed()
    }
    let first = node.map { graph.outgoing[$0] } ?? graph.startEdges
    if let node { visited.insert(node) }
    for edge in first {
      if useful(edge) { return [edge] }
      let next = graph.edges[edge].to
      if visited.insert(next).inserted {
        reachedBy[next] = edge
        queue.append(next)
      }
    }
    var head = 0
    while head < queue.count {
      let current = queue[head]
      head += 1
      for edge in graph.outgoing[current] {
        if useful(edge) { return chain(to: current) + [edge] }
        let next = graph.edges[edge].to
        if visited.insert(next).inserted {
          reachedBy[next] = edge
          queue.append(next)
        }
      }
    }
    return nil
  }

  /// The path of `edges` (the first one a start).
  private func path(_ edges: [Int]) -> StateMachinePath {
    StateMachinePath(
      steps: edges.map { index in
        let edge = graph.edges[index]
        return StateMachinePathStep(
          kind: edge.kind, configuration: graph.nodes[edge.to].configuration, accepted: edge.accepted,
          guards: edge.guards.map {
            .init(transition: graph.skeleton.name(of: $0.guarded), holds: $0.holds, isEvaluated: !$0.free)
          },
          transitions: edge.taken.map { graph.skeleton.name(ofEdge: $0) })
      })
  }
}
