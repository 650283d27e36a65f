import StateMachines

// Hierarchical machines (Hierarchy §6): the nested shape's fast tier and step, a parallel state.

/// Two 3-level branches; `go`/`back` move leaf to leaf across the root without any code: the
/// nested shape's fast tier.
@StateMachine
final class NestedPlain {
  static let stateMachine = StateMachineDefinition<NestedPlain> { sm in
    sm.addState("a") { a in a.addState("a1") { $0.addState("a11") } }
    sm.addState("b") { b in b.addState("b1") { $0.addState("b11") } }
    sm.when("go", transitionFrom: "a/a1/a11", to: "b/b1/b11")
    sm.when("back", transitionFrom: "b/b1/b11", to: "a/a1/a11")
  }
}

/// Row n1's machine with an exit action on each leaf and an entry action on each leaf: every
/// event runs one exit and one entry action, like row 9.
@StateMachine
final class NestedEntryExit {
  private(set) var entries = 0
  private(set) var exits = 0

  static let stateMachine = StateMachineDefinition<NestedEntryExit> { sm in
    sm.addState("a") { a in a.addState("a1") { $0.addState("a11") } }
    sm.addState("b") { b in b.addState("b1") { $0.addState("b11") } }
    sm.when("go", transitionFrom: "a/a1/a11", to: "b/b1/b11")
    sm.when("back", transitionFrom: "b/b1/b11", to: "a/a1/a11")
    for leaf in ["a11", "b11"] {
      sm.onEntry(leaf) { $0.entries &+= 1 }
      sm.onExit(leaf) { $0.exits &+= 1 }
    }
  }
}

/// A parallel state of two regions; `flip` and `flop` are handled in both regions at once. The
/// first region's states have an exit and an entry action (the same count as row 9).
@StateMachine
final class ParallelRegions {
  private(set) var entries = 0
  private(set) var exits = 0

  static let stateMachine = StateMachineDefinition<ParallelRegions> { sm in
    sm.addParallelState("p") { p in
      p.addState("left") { $0.addState("x1"); $0.addState("x2") }
      p.addState("right") { $0.addState("y1"); $0.addState("y2") }
    }
    sm.when("flip", transitionFrom: "x1", to: "x2")
    sm.when("flop", transitionFrom: "x2", to: "x1")
    sm.when("flip", transitionFrom: "y1", to: "y2")
    sm.when("flop", transitionFrom: "y2", to: "y1")
    for state in ["x1", "x2"] {
      sm.onEntry(state) { $0.entries &+= 1 }
      sm.onExit(state) { $0.exits &+= 1 }
    }
  }
}

/// (n1) Leaf to leaf across the root, no code.
@inline(never)
func nestedPlainCycle(_ events: Int) -> Int {
  let machine = NestedPlain()
  _ = machine.isA
  var expected = 0
  for _ in 0..<events / 2 {
    if machine.go() { expected &+= 1 }
    if machine.back() { expected &+= 1 }
  }
  return expected
}

/// (n2) Leaf to leaf across the root with an exit and an entry action.
@inline(never)
func nestedEntryExitCycle(_ events: Int) -> Int {
  let machine = NestedEntryExit()
  _ = machine.isA
  var expected = 0
  for _ in 0..<events / 2 {
    if machine.go() { expected &+= 1 }
    if machine.back() { expected &+= 1 }
  }
  return machine.exits == events / 2 * 2 ? expected : 0
}

/// (n3) One event, a transition in each region of a parallel state.
@inline(never)
func parallelCycle(_ events: Int) -> Int {
  let machine = ParallelRegions()
  _ = machine.isP
  var expected = 0
  for _ in 0..<events / 2 {
    if machine.flip() { expected &+= 1 }
    if machine.flop() { expected &+= 1 }
  }
  return machine.exits == events / 2 * 2 && machine.isY1 ? expected : 0
}

/// A nested definition of `states` states: groups of 10 leaves under compound states, 10 groups
/// per top-level state, with a transition from each leaf to the next.
func buildNested(states: Int) -> StateMachineDefinition<DynamicStateMachine> {
  StateMachineDefinition<DynamicStateMachine> { sm in
    var leaves: [String] = []
    var count = 0
    var top = 0
    while count < states {
      let topName = "t\(top)"
      sm.addState(topName) { t in
        for group in 0..<10 where count < states {
          let groupName = "\(topName)g\(group)"
          t.addState(groupName) { g in
            for leaf in 0..<8 {
              let name = "\(groupName)l\(leaf)"
              g.addState(name)
              leaves.append("\(topName)/\(groupName)/\(name)")
            }
          }
          count += 9
        }
      }
      count += 1
      top += 1
    }
    for (index, leaf) in leaves.enumerated() {
      sm.when("next", transitionFrom: leaf, to: leaves[(index + 1) % leaves.count])
    }
  }
}
