import StateMachines

/// A small, seeded generator (SplitMix64): the same seed gives the same chart on every platform.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
  mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
}

/// A random statechart described as plain data (Hierarchy §9.4): states up to 6 levels deep,
/// parallel states, shallow and deep history, initial states at any depth, eventless and guarded
/// transitions, forks, the three kinds, done transitions, and actions that raise internal events.
/// Names are unique, so a name is also a bare reference.
struct RandomChart: CustomStringConvertible {
  enum Kind: Equatable { case atomic, compound, parallel, final, shallowHistory, deepHistory }

  struct Node {
    let name: String
    let parent: String?  // nil: top level
    var kind: Kind
    var children: [String] = []
    /// A compound state's initial (a descendant), if not its first child.
    var initial: String?
  }

  struct Transition {
    /// nil: a wildcard (the root's).
    let source: String?
    /// nil: eventless. `done.state.<path>` for a done transition.
    let event: String?
    let targets: [String]
    let kind: TransitionKind
    /// A guard's identity, or nil for none.
    let guardID: Int?
    /// The internal event the action raises, if any.
    let raises: String?
    /// Whether it has an action that records it in the trace.
    var hasAction = true
    /// Declared actions run after the recording one (RandomChart+Content).
    var content: [DeclaredAction] = []
  }

  var nodes: [String: Node] = [:]
  var topLevel: [String] = []
  var transitions: [Transition] = []
  /// The machine's initial state, if not the first top-level state.
  var initial: String?
  /// Every node in document order.
  var documentOrder: [String] = []
  /// States without entry and exit actions (so that slots of the nested shape can take the fast
  /// tier).
  var quietStates: Set<String> = []
  /// Declared actions on entry to and exit from states (RandomChart+Content).
  var entryContent: [String: [DeclaredAction]] = [:]
  var exitContent: [String: [DeclaredAction]] = [:]
  /// Guards that are `In()` conditions: per guard id, the state that must be active.
  var inGuards: [Int: String] = [:]

  /// The state guard `id` tests, if it is an `In()` condition.
  func inGuard(_ id: Int) -> String? { inGuards[id] }
  static let externalEvents = ["e0", "e1", "e2", "e3"]
  static let internalEvents = ["i0", "i1"]

  func path(_ name: String) -> String {
    var components = [name]
    var current = nodes[name]!.parent
    while let parent = current {
      components.insert(parent, at: 0)
      current = nodes[parent]!.parent
    }
    return components.joined(separator: "/")
  }

  func isDescendant(_ name: String, of ancestor: String) -> Bool {
    var current = nodes[name]!.parent
    while let parent = current {
      if parent == ancestor { return true }
      current = nodes[parent]!.parent
    }
    return false
  }

  /// States (not pseudostates).
  var stateNames: [String] {
    documentOrder.filter { [.atomic, .compound, .parallel, .final].contains(nodes[$0]!.kind) }
  }

  init(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    // A third of the charts are nested only (no parallel state, no eventless transition), the
    // shape whose slots are planned; half of those are quiet, so their slots take the fast tier.
    // Of the others, half have no eventless transition, so their parallel slots are planned too.
    let nestedOnly = seed % 3 != 0
    let quiet = seed % 3 == 2
    let eventless = seed % 6 == 0
    var counter = 0
    func newName() -> String {
      counter += 1
      return "s\(counter)"
    }
    func add(_ parent: String?, depth: Int, mustContainStates: Bool = false) -> String {
      let name = newName()
      var kind: Kind = .atomic
      if depth < 6 && counter < 28 {
        let roll = Double.random(in: 0..<1, using: &random)
        if roll < 0.3 { kind = .compound } else if roll < 0.42 && !nestedOnly { kind = .parallel } else if roll < 0.5 && !mustContainStates {
          kind = .final
        }
      }
      if mustContainStates && kind == .final { kind = .atomic }
      nodes[name] = Node(name: name, parent: parent, kind: kind)
      if let parent { nodes[parent]!.children.append(name) } else { topLevel.append(name) }
      switch kind {
      case .compound:
        for _ in 0..<Int.random(in: 1...3, using: &random) { _ = add(name, depth: depth + 1) }
        if random.chance(0.25) {
          let history = newName()
          nodes[history] = Node(name: history, parent: name, kind: random.chance(0.5) ? .deepHistory : .shallowHistory)
          nodes[name]!.children.append(history)
        }
      case .parallel:
        for _ in 0..<Int.random(in: 2...3, using: &random) {
          let region = newName()
          nodes[region] = Node(name: region, parent: name, kind: .compound)
          nodes[name]!.children.append(region)
          for _ in 0..<Int.random(in: 1...2, using: &random) { _ = add(region, depth: depth + 2) }
        }
        if random.chance(0.15) {
          let history = newName()
          nodes[history] = Node(name: history, parent: name, kind: random.chance(0.5) ? .deepHistory : .shallowHistory)
          nodes[name]!.children.append(history)
        }
      default:
        break
      }
      return name
    }
    for index in 0..<Int.random(in: 2...4, using: &random) { _ = add(nil, depth: 1, mustContainStates: index == 0) }
    func visit(_ name: String) {
      documentOrder.append(name)
      for child in nodes[name]!.children { visit(child) }
    }
    for name in topLevel { visit(name) }

    let states = stateNames
    func descendants(_ name: String) -> [String] { states.filter { isDescendant($0, of: name) } }
    // Initial states: sometimes a deeper descendant.
    for name in documentOrder where nodes[name]!.kind == .compound && random.chance(0.2) {
      let deeper = descendants(name).filter { candidate in
        // Not inside a parallel's region below the compound more than once: any single descendant is legal.
        nodes[candidate]!.kind != .final || nodes[candidate]!.parent == name
      }
      if !deeper.isEmpty { nodes[name]!.initial = random.pick(deeper) }
    }
    if random.chance(0.2) { initial = random.pick(states.filter { nodes[$0]!.kind != .final }) }
    if quiet {
      for name in documentOrder where random.chance(0.6) { quietStates.insert(name) }
    }
    let histories = documentOrder.filter { [.shallowHistory, .deepHistory].contains(nodes[$0]!.kind) }
    let parallels = states.filter { nodes[$0]!.kind == .parallel }
    for _ in 0..<Int.random(in: 8...22, using: &random) {
      let roll = Double.random(in: 0..<1, using: &random)
      let source: String? = random.chance(0.05) ? nil : random.pick(states.filter { nodes[$0]!.kind != .final })
      let guardID = random.chance(0.4) ? Int.random(in: 0..<1000, using: &random) : nil
      if roll < 0.1, eventless, let source {
        // Eventless, always guarded (so that most charts settle).
        transitions.append(
          Transition(
            source: source, event: nil, targets: [random.pick(states)], kind: .external,
            guardID: guardID ?? Int.random(in: 0..<1000, using: &random), raises: nil))
        continue
      }
      let event = random.chance(0.15) ? random.pick(Self.internalEvents) : random.pick(Self.externalEvents)
      let raises = event.hasPrefix("e") && random.chance(0.2) ? random.pick(Self.internalEvents) : nil
      if roll < 0.2, let source {
        transitions.append(
          Transition(source: source, event: event, targets: [], kind: .internal, guardID: guardID, raises: raises))
      } else if roll < 0.3, !parallels.isEmpty, source != nil {
        // A fork: one descendant in each of two regions.
        let parallel = random.pick(parallels)
        let regions = nodes[parallel]!.children.filter { nodes[$0]!.kind == .compound }
        let first = random.pick(descendants(regions[0]) + [regions[0]])
        let second = random.pick(descendants(regions[1]) + [regions[1]])
        transitions.append(
          Transition(source: source, event: event, targets: [first, second], kind: .external, guardID: guardID, raises: raises))
      } else if roll < 0.37, !histories.isEmpty, source != nil {
        transitions.append(
          Transition(
            source: source, event: event, targets: [random.pick(histories)], kind: .external, guardID: guardID,
            raises: raises))
      } else if roll < 0.42, let done = states.filter({ [.compound, .parallel].contains(nodes[$0]!.kind) }).randomElement(using: &random) {
        transitions.append(
          Transition(
            source: done, event: "done.state.\(path(done))", targets: [random.pick(states)], kind: .external,
            guardID: nil, raises: nil))
      } else {
        transitions.append(
          Transition(
            source: source, event: event, targets: [random.pick(states)], kind: random.chance(0.3) ? .local : .external,
            guardID: guardID, raises: raises))
      }
    }
    quieten(seed: seed)
  }

  /// Applied after the transitions are made: quiet charts drop most actions.
  mutating func quieten(seed: UInt64) {
    guard seed % 3 == 2 else { return }
    var random = SeededGenerator(seed: seed &+ 17)
    for index in transitions.indices where transitions[index].raises == nil && random.chance(0.7) {
      transitions[index].hasAction = false
    }
  }

  /// Whether guard `id` passes during the `step`-th external event: a pure function, so the
  /// oracle and the runtime see the same answers however often they ask.
  static func guardPasses(_ id: Int, step: Int) -> Bool {
    (id &* 2_654_435_761 &+ step &* 40_503) % 7 < 4
  }

  var description: String {
    var lines: [String] = []
    for name in documentOrder {
      let node = nodes[name]!
      let depth = path(name).split(separator: "/").count - 1
      lines.append(String(repeating: "  ", count: depth) + "\(name) \(node.kind)" + (node.initial.map { " initial=\($0)" } ?? ""))
    }
    if let initial { lines.append("initial=\(initial)") }
    for (index, transition) in transitions.enumerated() {
      lines.append(
        "t\(index): \(transition.source ?? "*") -\(transition.event ?? "(always)")-> \(transition.targets) \(transition.kind)"
          + (transition.guardID.map { " guard \($0)" } ?? "") + (transition.raises.map { " raises \($0)" } ?? ""))
    }
    return lines.joined(separator: "\n")
  }
}
