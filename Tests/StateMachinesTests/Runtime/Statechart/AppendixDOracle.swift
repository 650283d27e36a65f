import StateMachines

/// A naive transcription of W3C SCXML Appendix D over `Set<String>` (Hierarchy §9.4): the
/// oracle the compiled runtime is compared with. Written for obviousness, not speed: every
/// procedure recomputes from the chart's data, and document order comes from sorting. It adds our
/// documented rules: `.local` (S10), wildcards owned by the root (S4), the eventless cap (S12)
/// and a top-level final state that terminates the machine.
final class AppendixDOracle {
  let chart: RandomChart
  private(set) var configuration: Set<String> = []
  private(set) var history: [String: [String]] = [:]
  var internalQueue: [String] = []
  /// Events sent without a delay, after the macrostep (S13); delayed sends waiting on the clock
  /// (``AppendixDOracle/deliverDue()``).
  var externalQueue: [String] = []
  var pending: [PendingSend] = []
  /// What `In()` in executable content sees while a microstep runs (`nil`: ``configuration``).
  var conditionConfiguration: Set<String>?
  /// Every transition taken so far, by index.
  var takenTransitions: Set<Int> = []
  private(set) var running = true
  var trace: [String] = []
  /// The number of external events the test sent so far (guards depend on it); results and
  /// posts do not count.
  var step = 0
  static let root = "#root"
  /// The runtime's `maxStepsPerRunToCompletion` in the differential test.
  static let maxSteps = 50
  /// The runtime's `maxEventlessMicrosteps` in the differential test.
  static let maxEventless = 50

  /// The states that invoke work (Invoke I2): `statesToInvoke` of Appendix D, and the
  /// invocations running now, each with its start's number, which is the runtime's generation
  /// (both number an object's starts from 1 in the same order, I5), and its state's entry.
  let invokingStates: Set<String>
  var statesToInvoke: Set<String> = []
  var invocations: [(state: String, generation: UInt64, entry: Int)] = []
  /// How often each state was entered: Appendix D enters an active ancestor of a history
  /// target again without exiting it, which makes its running work stale (I5, I7) but does
  /// not cancel it (I8 cancels on exit).
  var entries: [String: Int] = [:]
  /// The state of each start, by generation - 1.
  var starts: [String] = []
  /// Results offered to the machine, and results dropped as stale (I7).
  var delivered = 0
  var dropped = 0
  /// What the first callback of the running `send` does (``AppendixDOracle/Hook``), until it ran.
  var armedHook: Hook?
  /// The hook that ran in the running `send`, and its post while it waits for the macrostep's end.
  var firedHook: Hook?
  var pendingPost: String?

  init(_ chart: RandomChart, invokingStates: Set<String> = []) {
    self.chart = chart
    self.invokingStates = invokingStates
  }

  /// The end of a macrostep (Appendix D's main event loop): the invokes of the states entered
  /// and not exited start, in document order; the trace records each.
  func startInvocations() {
    if running {
      for state in documentOrder(statesToInvoke) {
        starts.append(state)
        invocations.append((state, UInt64(starts.count), entries[state, default: 0]))
        record("invoke:\(state)")
      }
    }
    statesToInvoke.removeAll()
  }

  /// Queues an internal event. An event no transition names is unknown to the runtime, which
  /// rejects it at once instead of queueing it: it then takes no place in the run's step count.
  func raise(_ event: String) {
    if chart.transitions.contains(where: { $0.event == event }) { internalQueue.append(event) }
  }

  // MARK: The tree

  func parent(_ state: String) -> String { chart.nodes[state]!.parent ?? Self.root }
  func children(_ state: String) -> [String] { state == Self.root ? chart.topLevel : chart.nodes[state]!.children }
  func stateChildren(_ state: String) -> [String] { children(state).filter { !isHistory($0) } }
  func documentIndex(_ state: String) -> Int { documentIndexes[state]! }
  private lazy var documentIndexes: [String: Int] = Dictionary(
    uniqueKeysWithValues: chart.documentOrder.enumerated().map { ($0.element, $0.offset) })
  func kind(_ state: String) -> RandomChart.Kind { chart.nodes[state]!.kind }
  func isHistory(_ state: String) -> Bool { state != Self.root && [.shallowHistory, .deepHistory].contains(kind(state)) }
  func isAtomic(_ state: String) -> Bool { [.atomic, .final].contains(kind(state)) }
  func isCompound(_ state: String) -> Bool { state != Self.root && kind(state) == .compound }
  func isParallel(_ state: String) -> Bool { state != Self.root && kind(state) == .parallel }
  func isFinal(_ state: String) -> Bool { state != Self.root && kind(state) == .final }
  func isCompoundOrRoot(_ state: String) -> Bool { state == Self.root || isCompound(state) }

  /// Whether `state` is a proper descendant of `ancestor`.
  func isDescendant(_ state: String, _ ancestor: String) -> Bool {
    if state == Self.root { return false }
    var current = parent(state)
    while true {
      if current == ancestor { return true }
      if current == Self.root { return false }
      current = parent(current)
    }
  }

  /// The proper ancestors of `state` up to, not including, `upTo` (innermost first).
  func properAncestors(_ state: String, upTo: String?) -> [String] {
    var result: [String] = []
    var current = state == Self.root ? nil : Optional(parent(state))
    while let next = current, next != upTo {
      result.append(next)
      current = next == Self.root ? nil : parent(next)
    }
    return result
  }

  func documentOrder(_ states: Set<String>) -> [String] { states.sorted { documentIndex($0) < documentIndex($1) } }

  func initial(_ state: String) -> [String] {
    if state == Self.root { return [chart.initial ?? chart.topLevel[0]] }
    return [chart.nodes[state]!.initial ?? stateChildren(state)[0]]
  }

  func historyDefault(_ history: String) -> [String] {
    let parent = parent(history)
    return isParallel(parent) ? stateChildren(parent) : initial(parent)
  }

  // MARK: The interpreter

  typealias Transition = (index: Int, transition: RandomChart.Transition)

  func start() {
    enterStates([(-1, RandomChart.Transition(source: Self.root, event: nil, targets: initial(Self.root), kind: .external, guardID: nil, raises: nil))])
    var steps = 1
    finishMacrostep(&steps)
    startInvocations()
    takeExternal(&steps)
  }

  /// Sends an external event; returns whether a transition was taken for it. `hook` runs at
  /// the first callback of the run, if any (see ``Hook``).
  @discardableResult
  func send(_ event: String, hook: Hook? = nil) -> Bool {
    firedHook = nil
    guard running else { return false }
    step += 1
    armedHook = hook
    defer { armedHook = nil }
    let enabled = selectTransitions(event)
    if enabled.isEmpty { return false }
    microstep(enabled)
    var steps = 1
    finishMacrostep(&steps)
    startInvocations()
    takePost(&steps)
    takeExternal(&steps)
    return true
  }

  /// Eventless transitions, then the internal queue, until both are empty (S3.6); each event's
  /// eventless transitions are capped at 1,000 microsteps (S12), past which the queue is dropped;
  /// a run to completion processes at most `maxSteps` events (the first one included), then
  /// drops the queue (`maxStepsPerRunToCompletion`).
  func finishMacrostep(_ steps: inout Int) {
    takeEventless()
    while running, !internalQueue.isEmpty {
      if steps >= Self.maxSteps {
        dropQueue()
        return
      }
      steps += 1
      let event = internalQueue.removeFirst()
      let enabled = selectTransitions(event)
      if enabled.isEmpty { continue }
      microstep(enabled)
      takeEventless()
    }
  }

  private func takeEventless() {
    var count = 0
    while running {
      let enabled = selectTransitions(nil)
      if enabled.isEmpty { return }
      count += 1
      if count > Self.maxEventless {
        dropQueue()
        return
      }
      microstep(enabled)
    }
  }

  func guardPasses(_ transition: RandomChart.Transition, _ index: Int? = nil) -> Bool {
    guard let guardID = transition.guardID else { return true }
    if let state = chart.inGuard(guardID) { return configuration.contains(state) }
    if let guardAnswer, let index {
      if let known = asked[index] { return known }
      let answer = guardAnswer(index)
      asked[index] = answer
      return answer
    }
    return RandomChart.guardPasses(guardID, step: step)
  }

  /// Answers the guards instead of ``RandomChart/guardPasses(_:step:)`` (the path generator's
  /// test), by transition index, once per selection.
  var guardAnswer: ((Int) -> Bool)?
  private var asked: [Int: Bool] = [:]

  /// Puts the oracle in a configuration it reached before (the path generator's test).
  func restore(configuration: Set<String>, history: [String: [String]], running: Bool) {
    self.configuration = configuration
    self.history = history
    self.running = running
  }

  /// Puts the oracle in a configuration with delayed sends waiting.
  func restore(configuration: Set<String>, history: [String: [String]], running: Bool, pending: [PendingSend]) {
    restore(configuration: configuration, history: history, running: running)
    self.pending = pending
  }

  func selectTransitions(_ event: String?) -> [Transition] {
    var enabled: [Transition] = []
    asked = [:]
    let atomics = documentOrder(configuration.filter { isAtomic($0) })
    for state in atomics {
      search: for holder in [state] + properAncestors(state, upTo: nil) {
        for (index, transition) in chart.transitions.enumerated()
        where (transition.source ?? Self.root) == holder && transition.event == event && guardPasses(transition, index) {
          if !enabled.contains(where: { $0.index == index }) { enabled.append((index, transition)) }
          break search
        }
      }
    }
    return removeConflictingTransitions(enabled)
  }

  func removeConflictingTransitions(_ enabled: [Transition]) -> [Transition] {
    var filtered: [Transition] = []
    for t1 in enabled {
      var preempted = false
      var toRemove: [Int] = []
      for t2 in filtered where !computeExitSet([t1]).isDisjoint(with: computeExitSet([t2])) {
        if isDescendant(t1.transition.source ?? Self.root, t2.transition.source ?? Self.root) {
          toRemove.append(t2.index)
        } else {
          preempted = true
          break
        }
      }
      if !preempted {
        filtered.removeAll { toRemove.contains($0.index) }
        filtered.append(t1)
      }
    }
    return filtered
  }

  func microstep(_ enabled: [Transition]) {
    // The runtime's In(): exit and transition actions see the configuration the microstep
    // started from (AppendixDOracle+Content).
    conditionConfiguration = configuration
    exitStates(enabled)
    for (index, transition) in enabled where index >= 0 {
      takenTransitions.insert(index)
      if transition.hasAction { record("act:t\(index)") }
      if let raised = transition.raises { raise(raised) }
      run(transition.content)
    }
    enterStates(enabled)
  }

  func exitStates(_ enabled: [Transition]) {
    let statesToExit = documentOrder(computeExitSet(enabled)).reversed()
    for state in statesToExit {
      for pseudostate in children(state) where isHistory(pseudostate) {
        if kind(pseudostate) == .deepHistory {
          history[pseudostate] = documentOrder(configuration.filter { isAtomic($0) && isDescendant($0, state) })
        } else {
          history[pseudostate] = documentOrder(configuration.filter { parent($0) == state })
        }
      }
    }
    for state in statesToExit {
      if !chart.quietStates.contains(state) { record("exit:\(state)") }
      run(chart.exitContent[state] ?? [])
      configuration.remove(state)
      // Exit cancels the state's invocations (I8).
      statesToInvoke.remove(state)
      invocations.removeAll { $0.state == state }
    }
  }

  func computeExitSet(_ transitions: [Transition]) -> Set<String> {
    var statesToExit: Set<String> = []
    for (_, transition) in transitions where !transition.targets.isEmpty {
      let domain = transitionDomain(transition)
      for state in configuration where isDescendant(state, domain) { statesToExit.insert(state) }
    }
    return statesToExit
  }

  func effectiveTargetStates(_ transition: RandomChart.Transition) -> [String] {
    var targets: [String] = []
    func add(_ state: String) {
      if isHistory(state) {
        for target in history[state] ?? historyDefault(state) { add(target) }
      } else if !targets.contains(state) {
        targets.append(state)
      }
    }
    for target in transition.targets { add(target) }
    return targets
  }

  func isLocalToAncestor(_ transition: RandomChart.Transition) -> Bool {
    guard transition.kind == .local, let source = transition.source, source != Self.root, transition.targets.count == 1 else {
      return false
    }
    let target = transition.targets[0]
    return isCompound(target) && (target == source || isDescendant(source, target))
  }

  func transitionDomain(_ transition: RandomChart.Transition) -> String {
    let targets = effectiveTargetStates(transition)
    let source = transition.source ?? Self.root
    if source == Self.root { return Self.root }
    if transition.kind == .local {
      if isCompound(source) && targets.allSatisfy({ isDescendant($0, source) }) { return source }
      if isLocalToAncestor(transition) { return transition.targets[0] }
    }
    return findLCCA([source] + targets)
  }

  func findLCCA(_ states: [String]) -> String {
    for ancestor in properAncestors(states[0], upTo: nil) where isCompoundOrRoot(ancestor) {
      if states.dropFirst().allSatisfy({ isDescendant($0, ancestor) }) { return ancestor }
    }
    return Self.root
  }

  func enterStates(_ enabled: [Transition]) {
    var statesToEnter: Set<String> = []
    var statesForDefaultEntry: Set<String> = []
    computeEntrySet(enabled, &statesToEnter, &statesForDefaultEntry)
    // Entry actions see the microstep's whole new configuration.
    conditionConfiguration = configuration.union(statesToEnter)
    defer { conditionConfiguration = nil }
    for state in documentOrder(statesToEnter) {
      configuration.insert(state)
      entries[state, default: 0] += 1
      if invokingStates.contains(state) { statesToInvoke.insert(state) }
      if !chart.quietStates.contains(state) { record("enter:\(state)") }
      run(chart.entryContent[state] ?? [])
      if isFinal(state) {
        let parent = parent(state)
        if parent == Self.root {
          running = false
          pending.removeAll()
          // Termination cancels every invocation (I9).
          invocations.removeAll()
          statesToInvoke.removeAll()
        } else {
          raise("done.state.\(chart.path(parent))")
          let grandparent = self.parent(parent)
          if isParallel(grandparent), stateChildren(grandparent).allSatisfy({ isInFinalState($0) }) {
            raise("done.state.\(chart.path(grandparent))")
          }
        }
      }
    }
  }

  func isInFinalState(_ state: String) -> Bool {
    if isCompound(state) { return stateChildren(state).contains { isFinal($0) && configuration.contains($0) } }
    if isParallel(state) { return stateChildren(state).allSatisfy { isInFinalState($0) } }
    return false
  }

  func computeEntrySet(_ transitions: [Transition], _ statesToEnter: inout Set<String>, _ statesForDefaultEntry: inout Set<String>) {
    for (_, transition) in transitions where !transition.targets.isEmpty {
      if isLocalToAncestor(transition) {
        let target = transition.targets[0]
        for state in initial(target) { addDescendantStatesToEnter(state, &statesToEnter, &statesForDefaultEntry) }
        for state in initial(target) { addAncestorStatesToEnter(state, target, &statesToEnter, &statesForDefaultEntry) }
        continue
      }
      for state in transition.targets { addDescendantStatesToEnter(state, &statesToEnter, &statesForDefaultEntry) }
      let ancestor = transitionDomain(transition)
      for state in effectiveTargetStates(transition) {
        addAncestorStatesToEnter(state, ancestor, &statesToEnter, &statesForDefaultEntry)
      }
    }
  }

  func addDescendantStatesToEnter(_ state: String, _ statesToEnter: inout Set<String>, _ statesForDefaultEntry: inout Set<String>) {
    if isHistory(state) {
      let targets = history[state] ?? historyDefault(state)
      for target in targets { addDescendantStatesToEnter(target, &statesToEnter, &statesForDefaultEntry) }
      for target in targets { addAncestorStatesToEnter(target, parent(state), &statesToEnter, &statesForDefaultEntry) }
      return
    }
    statesToEnter.insert(state)
    if isCompound(state) {
      statesForDefaultEntry.insert(state)
      for target in initial(state) { addDescendantStatesToEnter(target, &statesToEnter, &statesForDefaultEntry) }
      for target in initial(state) { addAncestorStatesToEnter(target, state, &statesToEnter, &statesForDefaultEntry) }
    } else if isParallel(state) {
      for child in stateChildren(state) where !statesToEnter.contains(where: { isDescendant($0, child) }) {
        addDescendantStatesToEnter(child, &statesToEnter, &statesForDefaultEntry)
      }
    }
  }

  func addAncestorStatesToEnter(
    _ state: String, _ ancestor: String, _ statesToEnter: inout Set<String>, _ statesForDefaultEntry: inout Set<String>
  ) {
    for anc in properAncestors(state, upTo: ancestor) {
      statesToEnter.insert(anc)
      if isParallel(anc) {
        for child in stateChildren(anc) where !statesToEnter.contains(where: { isDescendant($0, child) }) {
          addDescendantStatesToEnter(child, &statesToEnter, &statesForDefaultEntry)
        }
      }
    }
  }
}
