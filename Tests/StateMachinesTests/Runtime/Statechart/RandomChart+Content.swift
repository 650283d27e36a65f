import StateMachines

// Random charts with executable content in every position (transitions, onentry, onexit): raise,
// send, delayed send with and without an id, cancel, and if/elseif/else on In(); guards that are
// In() conditions. Written as SCXML (`scxml`) or declared in Swift (`contentDefinition`), for the
// path explorer's tests against the Appendix D oracle.
//
// Left out: wildcard transitions and `.local` transitions that S10a does not make local (SCXML
// has neither), invokes, timeouts, bound (code) actions, and sends with a zero delay.

extension RandomChart {
  static let sendIDs = ["t0", "t1"]
  static let delays: [Duration] = [.seconds(1), .seconds(2), .seconds(3)]

  /// The chart of `seed` made expressible in SCXML, with content; `flat` keeps top-level atomic
  /// states only (a flat machine in Swift).
  static func withContent(seed: UInt64, flat: Bool = false) -> RandomChart {
    var chart = flat ? RandomChart(flatSeed: seed) : RandomChart(seed: seed)
    chart.quietStates = []
    var random = SeededGenerator(seed: seed &* 6_364_136_223_846_793_005 &+ 1)
    let states = chart.stateNames
    chart.transitions = chart.transitions.compactMap { transition in
      guard let source = transition.source, !(transition.event ?? "").contains(".invoke.") else { return nil }
      var kind = transition.kind
      if kind == .local {
        let local = chart.nodes[source]!.kind == .compound && !transition.targets.isEmpty
          && transition.targets.allSatisfy { chart.isDescendant($0, of: source) }
        kind = local ? .local : .external
      }
      var content = transition.raises.map { [DeclaredAction.raise($0)] } ?? []
      if random.chance(0.4) { content += chart.randomContent(&random) }
      var result = RandomChart.Transition(
        source: source, event: transition.event, targets: transition.targets, kind: kind, guardID: transition.guardID,
        raises: nil, hasAction: false)
      result.content = content
      return result
    }
    for guardID in chart.transitions.compactMap(\.guardID) { chart.inGuards[guardID] = random.pick(states) }
    for name in states {
      if random.chance(0.3) { chart.entryContent[name] = chart.randomContent(&random) }
      if random.chance(0.2) { chart.exitContent[name] = chart.randomContent(&random) }
    }
    return chart
  }

  /// A chart of 2 to 7 top-level states (some final) and random transitions between them.
  init(flatSeed seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let count = Int.random(in: 2...7, using: &random)
    for index in 1...count {
      let name = "s\(index)"
      let kind: Kind = index > 1 && random.chance(0.15) ? .final : .atomic
      nodes[name] = Node(name: name, parent: nil, kind: kind)
      topLevel.append(name)
      documentOrder.append(name)
    }
    let sources = topLevel.filter { nodes[$0]!.kind != .final }
    for _ in 0..<Int.random(in: 3...(count * 3), using: &random) {
      let event = random.chance(0.15) ? random.pick(Self.internalEvents) : random.pick(Self.externalEvents)
      let targetless = random.chance(0.15)
      transitions.append(
        Transition(
          source: random.pick(sources), event: event, targets: targetless ? [] : [random.pick(topLevel)],
          kind: targetless ? .internal : .external, guardID: random.chance(0.4) ? Int.random(in: 0..<1000, using: &random) : nil,
          raises: nil))
    }
  }

  /// One to three actions: raise, send, delayed send, cancel, or a choice on In().
  func randomContent(_ random: inout SeededGenerator, depth: Int = 0) -> [DeclaredAction] {
    let events = Self.externalEvents + Self.internalEvents
    return (0..<Int.random(in: 1...3, using: &random)).map { _ in
      let roll = Double.random(in: 0..<1, using: &random)
      if roll < 0.35 { return .raise(random.pick(events)) }
      if roll < 0.55 { return .send(random.pick(events)) }
      if roll < 0.75 {
        return .send(
          random.pick(events), delay: random.pick(Self.delays), id: random.chance(0.7) ? random.pick(Self.sendIDs) : nil)
      }
      if roll < 0.85 || depth > 0 { return .cancel(random.pick(Self.sendIDs)) }
      var condition = StateCondition.inState(random.pick(stateNames))
      if random.chance(0.3) { condition = .not(condition) }
      var branches = [DeclaredBranch(condition, randomContent(&random, depth: 1))]
      if random.chance(0.4) { branches.append(DeclaredBranch(.inState(random.pick(stateNames)), randomContent(&random, depth: 1))) }
      return .choose(branches, otherwise: random.chance(0.5) ? randomContent(&random, depth: 1) : [])
    }
  }

  /// The chart as an SCXML document: ids are the chart's names, transitions in document order
  /// (``documentTransitions``).
  var scxml: String {
    var lines = [
      "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"\(initial.map { " initial=\"\($0)\"" } ?? "")>"
    ]
    func content(_ actions: [DeclaredAction]) -> String {
      actions.map { action in
        switch action {
        case .raise(let event): return "<raise event=\"\(event)\"/>"
        case .send(let event, nil, _): return "<send event=\"\(event)\"/>"
        case .send(let event, let delay?, let id):
          return "<send event=\"\(event)\" delay=\"\(delay.components.seconds)s\"\(id.map { " id=\"\($0)\"" } ?? "")/>"
        case .cancel(let id): return "<cancel sendid=\"\(id)\"/>"
        case .choose(let branches, let otherwise):
          var text = ""
          for (index, branch) in branches.enumerated() {
            text += index == 0 ? "<if cond=\"\(Self.cond(branch.condition))\">" : "<elseif cond=\"\(Self.cond(branch.condition))\"/>"
            text += content(branch.actions)
          }
          if !otherwise.isEmpty { text += "<else/>" + content(otherwise) }
          return text + "</if>"
        }
      }.joined()
    }
    func write(_ name: String, depth: Int) {
      let node = nodes[name]!
      let indent = String(repeating: "  ", count: depth)
      let element: String
      var attributes = " id=\"\(name)\""
      switch node.kind {
      case .atomic, .compound: element = "state"
      case .parallel: element = "parallel"
      case .final: element = "final"
      case .shallowHistory, .deepHistory:
        lines.append("\(indent)<history id=\"\(name)\" type=\"\(node.kind == .deepHistory ? "deep" : "shallow")\"/>")
        return
      }
      if let initial = node.initial { attributes += " initial=\"\(initial)\"" }
      lines.append("\(indent)<\(element)\(attributes)>")
      if let actions = entryContent[name] { lines.append("\(indent)  <onentry>\(content(actions))</onentry>") }
      if let actions = exitContent[name] { lines.append("\(indent)  <onexit>\(content(actions))</onexit>") }
      for index in transitions.indices where transitions[index].source == name {
        let transition = transitions[index]
        var text = "<transition"
        if let event = transition.event {
          text += " event=\"\(event.hasPrefix("done.state.") ? "done.state.\(name)" : event)\""
        }
        if !transition.targets.isEmpty { text += " target=\"\(transition.targets.joined(separator: " "))\"" }
        if transition.kind == .local { text += " type=\"internal\"" }
        if let guardID = transition.guardID, let state = inGuard(guardID) { text += " cond=\"In('\(state)')\"" }
        lines.append("\(indent)  \(text)>\(content(transition.content))</transition>")
      }
      for child in node.children { write(child, depth: depth + 1) }
      lines.append("\(indent)</\(element)>")
    }
    for name in topLevel { write(name, depth: 1) }
    lines.append("</scxml>")
    return lines.joined(separator: "\n")
  }

  static func cond(_ condition: StateCondition) -> String {
    switch condition {
    case .constant(let value): return value ? "true" : "false"
    case .inState(let state): return "In('\(state)')"
    case .not(let inner): return "!\(cond(inner))"
    case .and(let a, let b): return "(\(cond(a)) &amp;&amp; \(cond(b)))"
    case .or(let a, let b): return "(\(cond(a)) || \(cond(b)))"
    }
  }

  /// The transitions' indices in the order the SCXML document declares them: by source, in
  /// document order.
  var documentTransitions: [Int] {
    documentOrder.flatMap { name in transitions.indices.filter { transitions[$0].source == name } }
  }

  /// The explorer's name of each transition (`from –event→ to`, repeats numbered), by index;
  /// none for a plain repeat, which a definition drops.
  var explorerNames: [Int: String] {
    struct Plain: Hashable {
      let source: String?
      let event: String?
      let targets: [String]
      let kind: TransitionKind
    }
    var plain: Set<Plain> = []
    var seen: [String: Int] = [:]
    var names: [Int: String] = [:]
    for index in documentTransitions {
      let transition = transitions[index]
      if transition.guardID == nil && transition.content.isEmpty {
        let key = Plain(source: transition.source, event: transition.event, targets: transition.targets, kind: transition.kind)
        guard plain.insert(key).inserted else { continue }
      }
      let source = path(transition.source!)
      let target = transition.targets.isEmpty ? source : transition.targets.map(path).joined(separator: ", ")
      let name = "\(source) –\(transition.event ?? "(eventless)")→ \(target)"
      let count = seen[name, default: 0] + 1
      seen[name] = count
      names[index] = count == 1 ? name : "\(name) (\(count))"
    }
    return names
  }

  /// The chart declared in Swift, in the SCXML document's order, with declared actions and
  /// `In()` guards evaluated on the object.
  func contentDefinition(clock: ManualClock) -> StateMachineDefinition<DynamicStateMachine> {
    StateMachineDefinition<DynamicStateMachine> { sm in
      sm.clock = clock
      sm.maxStepsPerRunToCompletion = AppendixDOracle.maxSteps
      sm.maxEventlessMicrosteps = AppendixDOracle.maxEventless
      sm.log = StateMachineLog { _ in }
      if let initial { sm.initialState = path(initial) }
      for name in documentOrder {
        let node = nodes[name]!
        let path = path(name)
        switch node.kind {
        case .atomic: sm.addState(path)
        case .final: sm.addFinalState(path)
        case .compound:
          sm.addState(path) { scope in
            if let initial = node.initial { scope.initialState = self.path(initial) }
          }
        case .parallel: sm.addParallelState(path) { _ in }
        case .shallowHistory: sm.addHistory(path, .shallow)
        case .deepHistory: sm.addHistory(path, .deep)
        }
        if let actions = entryContent[name] { sm.onEntry(path, perform: actions) }
        if let actions = exitContent[name] { sm.onExit(path, perform: actions) }
      }
      for index in documentTransitions {
        let transition = transitions[index]
        let from = path(transition.source!)
        let targets = transition.targets.map(path)
        let declaration: TransitionDeclaration<DynamicStateMachine>
        if let event = transition.event {
          if targets.isEmpty {
            declaration = sm.when(event, transitionFrom: from, to: from, kind: .internal)
          } else if targets.count > 1 {
            declaration = sm.when(event, transitionFrom: from, to: targets, kind: transition.kind)
          } else {
            declaration = sm.when(event, transitionFrom: from, to: targets[0], kind: transition.kind)
          }
        } else {
          declaration = sm.always(transitionFrom: from, to: targets[0])
        }
        if let guardID = transition.guardID, let state = inGuard(guardID) {
          let statePath = path(state)
          declaration.guarded { $0.isInState(statePath) }
        }
        if !transition.content.isEmpty { declaration.perform(transition.content) }
      }
    }
  }
}
