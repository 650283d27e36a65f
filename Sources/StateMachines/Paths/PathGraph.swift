// The graph of a definition's configurations: the explorer runs every step the machine can take
// from every configuration it reaches, on the skeleton, with every outcome of every guard.

/// A definition's reachable configurations (nodes) and the steps between them (edges), found
/// breadth-first from the start. A node is a configuration with its history records and whether
/// the machine has terminated; an edge is one step (start, an event, a timeout, an invoke's
/// result) with the guard outcomes it needs.
struct PathGraph {
  /// What a node is: the state string, history records and termination the runtime encodes.
  struct NodeKey: Hashable {
    let state: String
    let history: [String: [String]]?
    let terminated: Bool
    /// The delayed sends waiting (the explorer's clock, ``PathOracle/PendingSend``).
    let pending: [PathOracle.PendingSend]
  }

  struct Node {
    let key: NodeKey
    /// The active atomic states, sorted.
    let configuration: [String]
    /// Every active state's index (ancestors too).
    let active: Set<Int32>
  }

  /// Whether `state` is active in `node`.
  func isActive(_ state: Int32, in node: Int) -> Bool { nodes[node].active.contains(state) }

  /// One step from `from` (-1: before the start) to `to`.
  struct Edge {
    let from: Int
    let kind: StateMachinePathStep.Kind
    let guards: [PathOracle.Query]
    let accepted: Bool
    let to: Int
    /// The transitions taken (indices in the skeleton's `edges`).
    let taken: [Int]
  }

  let skeleton: PathSkeleton
  private(set) var nodes: [Node] = []
  private(set) var edges: [Edge] = []
  /// Per node, its outgoing edges (indices in `edges`); the start's edges are `startEdges`.
  private(set) var outgoing: [[Int]] = []
  private(set) var startEdges: [Int] = []
  /// Why the exploration stopped before it had seen every configuration, if it did.
  private(set) var stoppedEarly: String?
  private var index: [NodeKey: Int] = [:]

  /// Per state index, the events of the transitions it is a source of; and the events of
  /// wildcard transitions.
  private let eventsBySource: [[Int32]]
  private let wildcardEvents: [Int32]

  init(_ skeleton: PathSkeleton, limits: StateMachinePaths.Limits) {
    self.skeleton = skeleton
    let compiled = skeleton.definition.compiled
    // Events fired as steps of their own: not the runtime's (`done.state.…`), not invoke results,
    // not events only timeouts fire (those are timeout steps).
    let timeoutOnly = Set(skeleton.transitions.filter { $0.timeout != nil }.map(\.event))
      .subtracting(skeleton.transitions.filter { $0.timeout == nil }.map(\.event))
    func isStep(_ event: Int32) -> Bool {
      guard event >= 0 else { return false }
      let name = compiled.events[Int(event)]
      return !name.isEmpty && !name.hasPrefix("done.state.") && !name.hasPrefix("done.invoke.")
        && !name.hasPrefix("error.invoke.") && !timeoutOnly.contains(name)
    }
    var bySource = Array(repeating: [Int32](), count: compiled.states.count)
    var wildcard: [Int32] = []
    switch compiled.engine {
    case .flat:
      for transition in compiled.declaredTransitions where isStep(transition.event) {
        if let from = transition.from {
          for state in from where !bySource[Int(state)].contains(transition.event) { bySource[Int(state)].append(transition.event) }
        } else if !wildcard.contains(transition.event) {
          wildcard.append(transition.event)
        }
      }
    case .statechart(let chart):
      for transition in chart.transitions where isStep(transition.event) {
        let source = Int(transition.source)
        if bySource.indices.contains(source) {
          if !bySource[source].contains(transition.event) { bySource[source].append(transition.event) }
        } else if !wildcard.contains(transition.event) {
          wildcard.append(transition.event)
        }
      }
    }
    eventsBySource = bySource
    wildcardEvents = wildcard
    explore(limits)
  }

  // MARK: Exploring

  private mutating func explore(_ limits: StateMachinePaths.Limits) {
    var queue: [Int] = []
    for edge in run(.start, from: nil, limits) {
      let (to, isNew) = node(edge.node, limits)
      guard let to else { break }
      if isNew { queue.append(to) }
      startEdges.append(edges.count)
      edges.append(Edge(from: -1, kind: .start, guards: edge.guards, accepted: edge.accepted, to: to, taken: edge.taken))
    }
    var head = 0
    while head < queue.count {
      let from = queue[head]
      head += 1
      for kind in steps(from) {
        for edge in run(kind, from: from, limits) {
          // A refused delivery of a delayed send still moves the clock on.
          guard edge.accepted || !edge.guards.isEmpty || kind.isDelayedSend else { continue }
          let (to, isNew) = node(edge.node, limits)
          guard let to else { continue }
          if isNew { queue.append(to) }
          outgoing[from].append(edges.count)
          edges.append(Edge(from: from, kind: kind, guards: edge.guards, accepted: edge.accepted, to: to, taken: edge.taken))
        }
      }
    }
  }

  /// The node of `key`, added if new; `nil` once the limit on configurations is reached.
  private mutating func node(_ found: (NodeKey, [String], Set<Int32>), _ limits: StateMachinePaths.Limits) -> (Int?, Bool) {
    if let existing = index[found.0] { return (existing, false) }
    guard nodes.count < limits.maxConfigurations else {
      stoppedEarly = stoppedEarly ?? "stopped at \(limits.maxConfigurations) configurations (maxConfigurations)"
      return (nil, false)
    }
    index[found.0] = nodes.count
    nodes.append(Node(key: found.0, configuration: found.1, active: found.2))
    outgoing.append([])
    return (nodes.count - 1, true)
  }

  /// The steps worth trying from a node: the events its active states (or a wildcard) have a
  /// transition for, the timeouts they armed, and their invokes' results.
  private func steps(_ node: Int) -> [StateMachinePathStep.Kind] {
    let key = nodes[node].key
    guard !key.terminated, let object = try? object(in: key) else { return [] }
    let definition = skeleton.definition
    let compiled = definition.compiled
    let active = definition.activeStateIndices(object)
    var events: [Int32] = wildcardEvents
    var kinds: [StateMachinePathStep.Kind] = []
    if let (delay, due, _) = PathOracle.due(key.pending) {
      kinds.append(.delayedSend(events: due.map(\.event), after: delay))
    }
    for state in active {
      for event in eventsBySource[Int(state)] where !events.contains(event) { events.append(event) }
      for trigger in compiled.triggers[Int(state)] {
        if let timeout = trigger.timeout {
          kinds.append(.timeout(event: compiled.events[Int(trigger.event)], after: timeout))
        }
        if let invocation = trigger.invocation {
          let invoke = compiled.invocations[Int(invocation)]
          if invoke.doneEvent >= 0 { kinds.append(.invokeDone(invoke.id)) }
          if invoke.errorEvent >= 0 { kinds.append(.invokeFailed(invoke.id)) }
        }
      }
    }
    return events.sorted().map { .event(compiled.events[Int($0)]) } + kinds
  }

  /// A fresh object of the skeleton in the configuration `key`.
  private func object(in key: NodeKey) throws(StateMachineError) -> DynamicStateMachine {
    let object = DynamicStateMachine(skeleton.definition)
    object._$stateMachineStorage = try StateRestoring.decodedStorage(
      skeleton.definition, state: key.state, history: key.history, terminated: key.terminated)
    // A decoded statechart enters its configuration on first use; the step reads it before.
    skeleton.definition.startIfNeeded(object)
    return object
  }

  /// What one run of a step found.
  private struct Found {
    let node: (NodeKey, [String], Set<Int32>)
    let guards: [PathOracle.Query]
    let accepted: Bool
    let taken: [Int]
  }

  /// Runs the step `kind` from `from` (`nil`: a fresh object's start) once for every outcome of
  /// its free guards, up to the limit.
  private mutating func run(_ kind: StateMachinePathStep.Kind, from: Int?, _ limits: StateMachinePaths.Limits) -> [Found] {
    let definition = skeleton.definition
    let oracle = skeleton.oracle
    var pending: [[Bool]] = [[]]
    var found: [Found] = []
    while let planned = pending.popLast() {
      guard found.count < limits.maxGuardCombinations else {
        stoppedEarly = stoppedEarly ?? "a step has more than \(limits.maxGuardCombinations) guard outcomes (maxGuardCombinations)"
        break
      }
      let object: DynamicStateMachine
      if let from {
        guard let made = try? self.object(in: nodes[from].key) else { return [] }
        object = made
      } else {
        object = DynamicStateMachine(definition)
      }
      oracle.begin(planned)
      oracle.pending = from.map { nodes[$0].key.pending } ?? []
      let accepted: Bool
      switch kind {
      case .start:
        accepted = (try? RunLoop.start(definition, object)) != nil
      case .event(let name), .timeout(let name, _):
        accepted = fire(name, object)
      case .invokeDone(let id):
        accepted = fire(InvocationEvents.done(id), object)
      case .invokeFailed(let id):
        accepted = fire(InvocationEvents.error(id), object)
      case .delayedSend:
        // Every send due at the earliest deadline, each a run of its own, in the order sent.
        let (_, due, rest) = PathOracle.due(oracle.pending) ?? (.zero, [], [])
        oracle.pending = rest
        var any = false
        for send in due where fire(send.event, object) { any = true }
        accepted = any
      }
      let answers = oracle.freeAnswers
      for position in planned.count..<answers.count { pending.append(Array(answers[..<position]) + [false]) }
      let encoded = StateRestoring.encodedState(definition, of: object._$stateMachineStorage)
      let terminated = definition.isTerminated(object)
      // A terminated machine takes no event: what it had sent late will never count.
      let pending = terminated ? [] : oracle.pending
      guard pending.count <= limits.maxPendingSends else {
        stoppedEarly = stoppedEarly ?? "more than \(limits.maxPendingSends) delayed sends wait at once (maxPendingSends)"
        break
      }
      let key = NodeKey(state: encoded.state, history: encoded.history, terminated: terminated, pending: pending)
      found.append(
        Found(
          node: (key, definition.activeLeaves(of: object).sorted(), Set(definition.activeStateIndices(object))),
          guards: oracle.queries, accepted: accepted,
          taken: oracle.taken.map { skeleton.edge($0.transition, from: $0.source) }))
    }
    return found
  }

  private func fire(_ name: String, _ object: DynamicStateMachine) -> Bool {
    let definition = skeleton.definition
    guard let event = definition.compiled.eventTable.index(of: name) else { return false }
    return RunLoop.runToCompletion(definition, event, nil, object).happened
  }
}
