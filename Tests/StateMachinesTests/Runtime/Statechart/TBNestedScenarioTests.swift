import StateMachines
import Testing

/// TBStateMachine's nested scenarios N1–N22 (Hierarchy §10, `TBSMStateMachineNestedTests.m`),
/// written with the DSL. Δ marks the two where we exit regions in reverse document order (S7,
/// W3C test 404) instead of TB's order.
@Suite("TBStateMachine nested scenarios (§10)")
struct TBNestedScenarioTests {
  let log = TestRecorder()

  /// Fires the setup events, clears the log, fires the events under test; returns the log.
  func run(_ setup: [(String, [String: any Sendable]?)], _ events: [(String, [String: any Sendable]?)]) throws
    -> (DynamicStateMachine, [String])
  {
    let machine = try TBScenarioFixture.machine(log)
    for (event, payload) in setup { #expect(machine.fire(event, payload: payload), "setup event \(event)") }
    log.clear()
    for (event, payload) in events { #expect(machine.fire(event, payload: payload), "event \(event)") }
    let trace = log.lines
    // The same scenario through TBStateMachine's own `statemachine.json` (Hierarchy §9.1), where
    // `../shared` is present: the same trace and configuration.
    if TBScenarioFixture.fixtureJSON != nil {
      let jsonLog = TestRecorder()
      let loaded = try TBScenarioFixture.machine(jsonLog, fromJSON: true)
      for (event, payload) in setup { _ = loaded.fire(event, payload: payload) }
      jsonLog.clear()
      for (event, payload) in events { _ = loaded.fire(event, payload: payload) }
      #expect(jsonLog.lines == trace, "statemachine.json gives the DSL's trace")
      #expect(loaded.activeStates == machine.activeStates, "statemachine.json gives the DSL's configuration")
    }
    return (machine, trace)
  }

  @Test("start enters a and its initial a1 (S2)")
  func start() throws {
    let definition = TBScenarioFixture.definition(log: log)
    let machine = DynamicStateMachine(definition)
    try machine.startStateMachine()
    #expect(log.lines == ["a_enter", "a1_enter"])
    #expect(machine.state == "a/a1")
    #expect(machine.isInState("a") && machine.isInState("a1") && !machine.isInState("b"))
  }

  @Test("N1: sub-state guards fail, the super state's transition is taken (S4)")
  func n1() throws {
    let (machine, trace) = try run([], [("a_guard", nil)])
    #expect(trace == ["a1_exit", "a_exit", "b_enter", "b1_enter"])
    #expect(machine.state == "b/b1")
  }

  @Test("N2: the first sub-state guard")
  func n2() throws {
    #expect(try run([], [("a_guard", ["k": "v"])]).1 == ["a1_exit", "a2_enter"])
  }

  @Test("N3: the second sub-state guard")
  func n3() throws {
    #expect(try run([], [("a_guard", ["k": 1])]).1 == ["a1_exit", "a3_enter"])
  }

  @Test("N4: an event fired by an action runs to completion (S3, S13)")
  func n4() throws {
    let (machine, trace) = try run([("a_guard", ["k": "v"])], [("a2_a3", nil)])
    #expect(trace == ["a2_exit", "a2_to_a3_action", "a3_enter", "a3_exit", "a1_enter"])
    #expect(machine.state == "a/a1")
  }

  @Test("N5: deep into a sub state's initial (S9)")
  func n5() throws {
    let (machine, trace) = try run([("a_guard", ["k": 1])], [("a3_b2", nil)])
    #expect(trace == ["a3_exit", "a_exit", "b_enter", "b2_enter", "b21_enter"])
    #expect(machine.state == "b/b2/b21")
  }

  @Test("N6: deep into a named leaf")
  func n6() throws {
    #expect(try run([("a_guard", ["k": 1])], [("a3_b22", nil)]).1 == ["a3_exit", "a_exit", "b_enter", "b2_enter", "b22_enter"])
  }

  @Test("N7: external from containing to contained exits and re-enters the container (S8, S10)")
  func n7() throws {
    #expect(try run([], [("a_a2", nil)]).1 == ["a1_exit", "a_exit", "a_enter", "a2_enter"])
  }

  @Test("N8: external from contained to containing")
  func n8() throws {
    #expect(try run([("a_guard", ["k": "v"])], [("a2_a", nil)]).1 == ["a2_exit", "a_exit", "a_enter", "a1_enter"])
  }

  @Test("N9: local from containing to contained keeps the container (S10a)")
  func n9() throws {
    #expect(try run([("a_guard", nil)], [("b_b22", nil)]).1 == ["b1_exit", "b2_enter", "b22_enter"])
  }

  @Test("N10: local from contained to containing keeps the container, enters its default (S10b)")
  func n10() throws {
    let (machine, trace) = try run([("a_guard", ["k": 1]), ("a3_b22", nil)], [("b22_b", nil)])
    #expect(trace == ["b22_exit", "b2_exit", "b1_enter"])
    #expect(machine.state == "b/b1")
  }

  @Test("N11: local between states that do not contain each other is external (S10c)")
  func n11() throws {
    let (machine, trace) = try run([("a_guard", nil), ("b_a3", nil)], [])
    #expect(trace.isEmpty)
    #expect(machine.state == "a/a3")
    // The same with kind .local declared explicitly.
    let local = try DynamicStateMachine(validating: { sm in
      sm.addState("a") { $0.addState("a1"); $0.addState("a3") }
      sm.addState("b") { $0.addState("b1") }
      sm.initialState = "b"
      for state in ["a", "a1", "a3", "b", "b1"] {
        sm.onEntry(state) { [log] _ in log.append("\(state)_enter") }
        sm.onExit(state) { [log] _ in log.append("\(state)_exit") }
      }
      sm.when("b_a3", transitionFrom: "b", to: "a3", kind: .local)
    })
    try local.startStateMachine()
    log.clear()
    #expect(local.fire("b_a3"))
    #expect(log.lines == ["b1_exit", "b_exit", "a_enter", "a3_enter"])
  }

  @Test("N12: internal transitions run their action only (S10)")
  func n12() throws {
    let trace = try run([], [("a1_internal", nil), ("a1_internal", nil), ("a1_internal", nil)]).1
    #expect(trace == Array(repeating: "a1_internal_action", count: 3))
  }

  @Test("N13: one event, an internal transition in each region, in document order (S4, S6)")
  func n13() throws {
    let trace = try run([("a_guard", nil), ("b_b3", nil)], [("b3xx_internal", nil), ("b3xx_internal", nil)]).1
    #expect(trace == ["b311_internal_action", "b321_internal_action", "b311_internal_action", "b321_internal_action"])
  }

  @Test("N14 Δ: out of a region into another top state: later region exits first (S7)")
  func n14() throws {
    let (machine, trace) = try run([("a_guard", nil), ("b_b3", nil)], [("b311_a1", nil)])
    #expect(trace == ["b321_exit", "b311_exit", "b3_exit", "b_exit", "a_enter", "a1_enter"])
    #expect(machine.state == "a/a1")
  }

  @Test("N15: into a parallel state, every region enters its default (S9)")
  func n15() throws {
    let (machine, _) = try run([("a_guard", nil), ("b_b3", nil)], [])
    #expect(machine.state == "b/b3@0/b311,b/b3@1/b321")
    #expect(machine.activeLeaves == ["b/b3@0/b311", "b/b3@1/b321"])
  }

  @Test("N16: into a parallel state at one leaf, the other region defaults")
  func n16() throws {
    let (machine, _) = try run([("a_guard", ["k": 1]), ("a3_b322", nil)], [])
    #expect(machine.state == "b/b3@0/b311,b/b3@1/b322")
  }

  @Test("N17: fork (S17a)")
  func n17() throws {
    let (machine, trace) = try run([], [("a_fork", nil)])
    #expect(trace == ["a1_exit", "a_exit", "c_enter", "c2_enter", "c212_enter", "c222_enter"])
    #expect(machine.state == "c/c2@0/c212,c/c2@1/c222")
  }

  @Test("N18 Δ: join; a duplicate arrival is ignored (S17b)")
  func n18() throws {
    let (machine, trace) = try run([("a_fork", nil)], [("c212_join", nil), ("c212_join", nil)])
    #expect(trace.isEmpty)
    #expect(machine.state == "c/c2@0/c212,c/c2@1/c222")
    log.clear()
    #expect(machine.fire("c222_join"))
    #expect(log.lines == ["c222_exit", "c212_exit", "c2_exit", "c_exit", "b_enter", "b1_enter"])
    #expect(machine.state == "b/b1")
  }

  @Test("N19: junction, first path (S17c)")
  func n19() throws {
    let trace = try run([], [("a_junction", ["junction_b1": true])]).1
    #expect(trace == ["a1_exit", "a_exit", "a_to_junction_ingoing_path_action", "b_enter", "b1_enter"])
  }

  @Test("N20: junction, second path with its action")
  func n20() throws {
    let trace = try run([], [("a_junction", ["junction_c2": true])]).1
    #expect(
      trace == [
        "a1_exit", "a_exit", "a_to_junction_ingoing_path_action", "junction_to_c2_outgoing_path_action", "c_enter",
        "c2_enter", "c211_enter", "c221_enter",
      ])
  }

  @Test("A junction none of whose paths passes does not enable its transition (S5)")
  func junctionWithoutPath() throws {
    let machine = try TBScenarioFixture.machine(log)
    #expect(!machine.fire("a_junction", payload: ["nothing": true]))
    #expect(log.lines.isEmpty)
    #expect(machine.state == "a/a1")
  }

  @Test("N21: a region path resolves (N4)")
  func n21() throws {
    let (machine, _) = try run([], [("a_fork", nil)])
    #expect(machine.isInState("c/c2@1/c222"))
    #expect(machine.isInState("c222"))
    #expect(machine.isInState("c/c2@1"))
    #expect(!machine.isInState("c/c2@1/c221"))
  }

  @Test(
    "N22: bad paths are rejected with a DefinitionError (N4, S20)",
    arguments: ["c/c2/c222", "c/c2@5/c222", "c/c2@-1/c222", "c/c1/c222", "c/c1/c222/cFoobar", ""])
  func n22(path: String) throws {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("a")
      sm.addState("c") { c in
        c.addState("c1")
        c.addParallelState("c2", regions: [["c211", "c212"], ["c221", "c222"]])
      }
      sm.when("go", transitionFrom: "a", to: path)
    }
    let error = try #require(definition.definitionError)
    switch error {
    case .invalidPath(let culprit, _, _): #expect(culprit == path)
    case .emptyName: #expect(path.isEmpty)
    default: Issue.record("unexpected \(error)")
    }
    #expect(!DynamicStateMachine(definition).fire("go"))
  }
}
