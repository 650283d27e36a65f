import Foundation
import StateMachines
import Testing

/// Rules of the Hierarchy article not covered by the TBStateMachine scenarios: bad definitions
/// (S20), eventless loops (S12), completion (S16), the external queue (S13) and triggers on
/// compound states (S18).
@Suite("Hierarchy rules (S12, S13, S16, S18, S20)", .serialized, .timeLimit(.minutes(1)))
struct HierarchyRulesTests {
  /// The definition error of `build`.
  func error(_ build: (StateMachineBuilder<DynamicStateMachine>) -> Void) -> DefinitionError? {
    StateMachineDefinition<DynamicStateMachine>(build).definitionError
  }

  @Test("S20: an ambiguous bare name names both candidates (N5)")
  func ambiguous() {
    let found = error { sm in
      sm.addState("off")
      sm.addState("player") { $0.addState("idle") }
      sm.addState("recorder") { $0.addState("idle") }
      sm.when("go", transitionFrom: "off", to: "idle")
    }
    #expect(found == .ambiguousState("idle", candidates: ["player/idle", "recorder/idle"], context: "transition 'go'"))
  }

  @Test("N5: the nearest scope with one match wins")
  func nearestScope() throws {
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("player") { p in
        p.addState("idle"); p.addState("busy")
        p.when("rest", transitionFrom: "busy", to: "idle")  // player/idle, found in the scope
      }
      sm.addState("recorder") { $0.addState("idle") }
      sm.initialState = "player/busy"
    })
    #expect(machine.fire("rest"))
    #expect(machine.state == "player/idle")
  }

  @Test(
    "S20: malformed hierarchies are rejected with a message naming the culprit",
    arguments: [
      "fork", "history outside", "junction without paths", "join in one region", "pseudostate source", "name with @",
      "duplicate kinds", "whenDone on an atomic state", "initial outside",
    ])
  func malformed(kind: String) {
    let found = error { sm in
      sm.addState("a")
      sm.addParallelState("p") { p in
        p.addState("left") { $0.addState("l1"); $0.addState("l2") }
        p.addState("right") { $0.addState("r1") }
      }
      switch kind {
      case "fork": sm.when("split", transitionFrom: "a", to: ["p/left/l1", "p/left/l2"])
      case "history outside": sm.addState("c") { $0.addState("c1"); $0.addHistory("h", .shallow, default: "a") }
      case "junction without paths": sm.addJunction("j") { _ in }
      case "join in one region":
        sm.addJoin("sync", to: "a")
        sm.when("x", transitionFrom: "l1", to: "sync")
        sm.when("y", transitionFrom: "l2", to: "sync")
      case "pseudostate source":
        sm.addState("c") { $0.addState("c1"); $0.addHistory("h") }
        sm.when("x", transitionFrom: "c/h", to: "a")
      case "name with @": sm.addState("b@1")
      case "duplicate kinds":
        sm.addState("d") { $0.addState("x") }
        sm.addParallelState("d") { $0.addState("y") }
      case "whenDone on an atomic state": sm.whenDone("a", transitionTo: "p")
      default: sm.addState("c") { c in c.addState("c1"); c.initialState = "a" }
      }
    }
    let message = found.map { "\($0)" } ?? "no error"
    // The whole message: the culprit, and what is wrong with it.
    let messages: [String: String] = [
      "fork": "transition 'split': 'p/left/l1' and 'p/left/l2' are not in distinct regions of one parallel state",
      "history outside": "the default 'a' of history 'c/h' is outside its parent",
      "junction without paths": "junction 'j' has no paths",
      "join in one region":
        "the sources of join 'sync': 'p/left/l1' and 'p/left/l2' are not in distinct regions of one parallel state",
      "pseudostate source": "transition 'x' leaves pseudostate 'c/h'; only states are sources",
      "name with @": "addState: state name 'b@1' contains '/', '@' or ',', which separate path components",
      "duplicate kinds": "state 'd' is declared twice with different kinds",
      "whenDone on an atomic state": "whenDone names 'a', which is not a compound or parallel state",
      "initial outside": "the initial state 'a' of 'c' is not inside it",
    ]
    #expect(message == messages[kind], "\(kind)")
  }

  @Test("S12: eventless transitions that never settle end the step with .eventlessLoop; the configuration is legal")
  func eventlessLoop() throws {
    let machine = try DynamicStateMachine(validating: { sm in
      sm.maxEventlessMicrosteps = 10
      sm.addState("idle")
      sm.addState("spin") { $0.addState("a"); $0.addState("b") }
      sm.when("go", transitionFrom: "idle", to: "spin")
      sm.always(transitionFrom: "spin/a", to: "spin/b")
      sm.always(transitionFrom: "spin/b", to: "spin/a")
    })
    let failure = stateMachineError { try machine.fireOrThrow("go") }
    #expect(failure == .eventlessLoop(event: "go", microsteps: 10))
    #expect(["spin/a", "spin/b"].contains(machine.state))
  }

  @Test("S16: a final child raises done.state of its parent; a parallel state is done when every region is")
  func completion() throws {
    let log = TestRecorder()
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("job") { job in
        job.addState("working")
        job.addFinalState("finished")
      }
      sm.addParallelState("both") { both in
        both.addState("left") { $0.addState("l"); $0.addFinalState("lDone") }
        both.addState("right") { $0.addState("r"); $0.addFinalState("rDone") }
      }
      sm.addState("end")
      sm.when("finish", transitionFrom: "working", to: "finished")
      sm.whenDone("job", transitionTo: "both")
      sm.when("leftDone", transitionFrom: "l", to: "lDone")
      sm.when("rightDone", transitionFrom: "r", to: "rDone")
      sm.whenDone("both", transitionTo: "end")
      sm.onEntry("end") { _ in log.append("end") }
    })
    #expect(machine.fire("finish"))
    #expect(machine.state == "both/left/l,both/right/r")
    #expect(machine.fire("leftDone"))
    #expect(machine.state == "both/left/lDone,both/right/r")
    #expect(!machine.isStateMachineTerminated)
    #expect(machine.fire("rightDone"))
    #expect(machine.state == "end")
    #expect(log.lines == ["end"])
  }

  @Test("S13: an event posted from a callback runs after the events fired there")
  func externalQueue() throws {
    let log = TestRecorder()
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("a"); sm.addState("b"); sm.addState("c"); sm.addState("d")
      sm.when("go", transitionFrom: "a", to: "b").action { machine in
        machine.post("later")
        machine.fire("now")
      }
      sm.when("now", transitionFrom: "b", to: "c")
      sm.when("later", transitionFrom: "c", to: "d")
      sm.when("later", transitionFrom: "b", to: "a")
      sm.didTransition { _, t in log.append(t.event) }
    })
    #expect(machine.fire("go"))
    #expect(log.lines == ["go", "now", "later"])
    #expect(machine.state == "d")
  }

  @Test("S18: a timeout on a compound state survives moves inside it and is cancelled when it is left")
  func compoundTimeout() async throws {
    let clock = ManualClock()
    let machine = try DynamicStateMachine(validating: { sm in
      sm.clock = clock
      sm.addState("session") { s in s.addState("reading"); s.addState("writing") }
      sm.addState("expired")
      sm.addState("closed")
      sm.when("expire", transitionFrom: "session", to: "expired", after: .seconds(10))
      sm.when("write", transitionFrom: "reading", to: "writing")
      sm.when("close", transitionFrom: "session", to: "closed")
      sm.when("reopen", transitionFrom: "closed", to: "session")
    })
    try machine.startStateMachine()
    await clock.advance(by: .seconds(6))
    #expect(machine.fire("write"))  // inside "session": its timeout stays armed
    await clock.advance(by: .seconds(5))
    #expect(machine.state == "expired")
    try machine.restoreState("session")
    #expect(machine.fire("close"))
    await clock.advance(by: .seconds(20))
    #expect(machine.state == "closed")  // left: cancelled
    #expect(machine.fire("reopen"))  // re-entered: armed again
    await clock.advance(by: .seconds(10))
    #expect(machine.state == "expired")
  }
}
