import StateMachines

// Deep history (Hierarchy S15): a return through deep history against a leaf-to-leaf transition
// across the root, both on run-time definitions driven by name, as a chart loaded from SCXML is.

/// Two 3-level branches under `on`, beside `off`; `go`/`back` move leaf to leaf across `on`'s
/// children, `pause`/`resume` leave `on` and come back through its deep history.
private let historyChart = StateMachineDefinition<DynamicStateMachine> { sm in
  sm.addState("on") { on in
    on.addState("a") { a in a.addState("a1") { $0.addState("a11") } }
    on.addState("b") { b in b.addState("b1") { $0.addState("b11") } }
    on.addHistory("resume", .deep)
  }
  sm.addState("off")
  sm.when("go", transitionFrom: "a11", to: "b11")
  sm.when("back", transitionFrom: "b11", to: "a11")
  sm.when("pause", transitionFrom: "on", to: "off")
  sm.when("resume", transitionFrom: "off", to: "on/resume")
}

/// (h1) Leaf to leaf across `on`'s children, no code, by name on a run-time definition.
@inline(never)
func historyLeafCycle(_ events: Int) -> Int {
  let machine = DynamicStateMachine(historyChart)
  _ = machine.state
  var expected = 0
  for _ in 0..<events / 2 {
    if machine.fire("go") { expected &+= 1 }
    if machine.fire("back") { expected &+= 1 }
  }
  return machine.state == "on/a/a1/a11" ? expected : 0
}

/// (h2) Leave `on` from a deep leaf, then return through its deep history to that leaf.
@inline(never)
func deepHistoryCycle(_ events: Int) -> Int {
  let machine = DynamicStateMachine(historyChart)
  _ = machine.fire("go")
  var expected = 0
  for _ in 0..<events / 2 {
    if machine.fire("pause") { expected &+= 1 }
    if machine.fire("resume") { expected &+= 1 }
  }
  return machine.state == "on/b/b1/b11" ? expected : 0
}
