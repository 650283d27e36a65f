import Foundation
import StateMachines

/// TBStateMachine's nested fixture (`statemachine.json`, Hierarchy §10) written with the DSL:
/// `a`{a1*,a2,a3}, `b`{b1*, b2{b21*,b22}, b3∥[@0 b311*,b312 | @1 b321*,b322]},
/// `c`{c1*, c2∥[@0 c211*,c212 | @1 c221*,c222]}, the JSON transitions and those TB's tests add in
/// code. Every state logs `x_enter` / `x_exit`.
enum TBScenarioFixture {
  static let allStates = [
    "a", "a1", "a2", "a3", "b", "b1", "b2", "b21", "b22", "b3", "b311", "b312", "b321", "b322", "c", "c1", "c2",
    "c211", "c212", "c221", "c222",
  ]

  static func payloadValue(_ transition: Transition, _ key: String) -> (any Sendable)? {
    transition.payload(as: [String: any Sendable].self)?[key]
  }

  static func definition(log: TestRecorder) -> StateMachineDefinition<DynamicStateMachine> {
    StateMachineDefinition<DynamicStateMachine> { sm in
      structure(sm)
      codeAdditions(sm, log: log)
      jsonTransitions(sm)
    }
  }

  /// TBStateMachine's `statemachine.json` in `../shared/tbstatemachine-fixtures`, if present.
  static let fixtureJSON: Data? = SharedFixtures.tbFixture("statemachine.json")

  /// The same machine loaded from `statemachine.json` (Hierarchy §9.1), with the same code
  /// additions made after loading, as TB's tests make them; `nil` where the fixture is absent.
  static func jsonDefinition(log: TestRecorder) throws -> StateMachineDefinition<DynamicStateMachine>? {
    guard let data = fixtureJSON else { return nil }
    return try StateMachineDefinition<DynamicStateMachine>(json: data, bind: { _ in }) { sm in codeAdditions(sm, log: log) }
  }

  /// The states of `statemachine.json`.
  static func structure(_ sm: StateMachineBuilder<DynamicStateMachine>) {
      sm.addState("a") { a in
        a.addState("a1"); a.addState("a2"); a.addState("a3")
      }
      sm.addState("b") { b in
        b.addState("b1")
        b.addState("b2") { $0.addState("b21"); $0.addState("b22") }
        b.addParallelState("b3", regions: [["b311", "b312"], ["b321", "b322"]])
      }
      sm.addState("c") { c in
        c.addState("c1")
        c.addParallelState("c2", regions: [["c211", "c212"], ["c221", "c222"]])
      }
  }

  /// What TB's tests add in code: entry and exit logs, guards, actions, internal transitions and
  /// the junction.
  static func codeAdditions(_ sm: StateMachineBuilder<DynamicStateMachine>, log: TestRecorder) {
      for state in allStates {
        sm.onEntry(state) { _ in log.append("\(state)_enter") }
        sm.onExit(state) { _ in log.append("\(state)_exit") }
      }
      // Added in code by TB's tests, before the JSON transitions of the same event (a1's own
      // transitions are found first anyway: S4 climbs from the atomic state).
      sm.when("a_guard", transitionFrom: "a1", to: "a2").guarded { _, t in
        payloadValue(t, "k") as? String == "v"
      }
      sm.when("a_guard", transitionFrom: "a1", to: "a3").guarded { _, t in
        t.payload != nil && payloadValue(t, "k") as? String != "v"
      }
      sm.when("a2_a3", transitionFrom: "a2", to: "a3").action { machine in
        log.append("a2_to_a3_action")
        machine.fire("a3_a1")
      }
      sm.when("a1_internal", transitionFrom: "a1", to: "a1", kind: .internal).action { _ in
        log.append("a1_internal_action")
      }
      for state in ["b311", "b321"] {
        sm.when("b3xx_internal", transitionFrom: state, to: state, kind: .internal).action { _ in
          log.append("\(state)_internal_action")
        }
      }
      sm.addJunction("junction") { j in
        j.path(to: "b/b1", if: { _, t in payloadValue(t, "junction_b1") != nil })
        j.path(
          to: "c/c2", if: { _, t in payloadValue(t, "junction_c2") != nil },
          action: { _, _ in log.append("junction_to_c2_outgoing_path_action") })
      }
      sm.when("a_junction", transitionFrom: "a", to: "junction").action { _ in
        log.append("a_to_junction_ingoing_path_action")
      }
  }

  /// The transitions of `statemachine.json`.
  static func jsonTransitions(_ sm: StateMachineBuilder<DynamicStateMachine>) {
      sm.when("a2_a", transitionFrom: "a/a2", to: "a")
      sm.when("a_a2", transitionFrom: "a", to: "a/a2")
      sm.when("a3_a1", transitionFrom: "a/a3", to: "a/a1")
      sm.when("a_guard", transitionFrom: "a", to: "b")
      sm.when("a3_b2", transitionFrom: "a/a3", to: "b/b2")
      sm.when("a3_b22", transitionFrom: "a/a3", to: "b/b2/b22")
      sm.when("b_a3", transitionFrom: "b", to: "a/a3")
      sm.when("b311_a1", transitionFrom: "b/b3@0/b311", to: "a/a1")
      sm.when("b22_b", transitionFrom: "b/b2/b22", to: "b", kind: .local)
      sm.when("b_b22", transitionFrom: "b", to: "b/b2/b22", kind: .local)
      sm.when("b_b3", transitionFrom: "b", to: "b/b3")
      sm.when("a3_b322", transitionFrom: "a/a3", to: "b/b3@1/b322")
      sm.when("a_fork", transitionFrom: "a", to: ["c/c2@0/c212", "c/c2@1/c222"])
      sm.addJoin("join", to: "b")
      sm.when("c212_join", transitionFrom: "c/c2@0/c212", to: "join")
      sm.when("c222_join", transitionFrom: "c/c2@1/c222", to: "join")
  }

  /// A started machine with a cleared log, from the DSL definition or from the JSON fixture.
  static func machine(_ log: TestRecorder, fromJSON: Bool = false) throws -> DynamicStateMachine {
    let definition = fromJSON ? try jsonDefinition(log: log)! : definition(log: log)
    try definition.validate()
    let machine = DynamicStateMachine(definition)
    try machine.startStateMachine()
    log.clear()
    return machine
  }
}
