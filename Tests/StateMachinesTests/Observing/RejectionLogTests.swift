import Testing

@testable import StateMachines

// Logging gaps: the verbose log shows every rejected event, including those the fast path
// rejects and unknown names, and the events dropped with an aborted step. With logging off the
// tables are those of a machine without a log (zero cost).

private struct Refusal: Error {}

private func loggedMachine(_ lines: TestRecorder) throws -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    sm.log = StateMachineLog { lines.append($0) }
    sm.addState("idle")
    sm.addState("running")
    sm.when("start", transitionFrom: "idle", to: "running")
    sm.when("stop", transitionFrom: "running", to: "idle")
    sm.when("ping", transitionFrom: "idle", to: "idle")
    sm.before("stop") { machine in
      machine.fire("ping")
      throw Refusal()
    }
  })
}

@Suite("Rejections in the log")
struct RejectionLogTests {
  @Test("a plain event without a transition from the current state is logged")
  func fastPathRejectionIsLogged() throws {
    let lines = TestRecorder()
    let machine = try loggedMachine(lines)
    #expect(machine.fire("start"))
    #expect(!machine.fire("start"))
    #expect(lines.lines.contains { $0.contains("rejected: event 'start' has no transition from state 'running'") })
  }

  @Test("an unknown name is logged")
  func unknownNameIsLogged() throws {
    let lines = TestRecorder()
    let machine = try loggedMachine(lines)
    #expect(!machine.fire("bogus"))
    #expect(lines.lines.contains("[DynamicStateMachine] event 'bogus' rejected: unknown event 'bogus'"))
  }

  @Test("events queued by a step whose before callback threw are dropped, and the log says so")
  func droppedEventsAreLogged() throws {
    let lines = TestRecorder()
    let machine = try loggedMachine(lines)
    #expect(machine.fire("start"))
    #expect(!machine.fire("stop"))
    #expect(machine.state == "running")
    #expect(lines.lines.contains { $0.contains("dropped 1 event(s) queued by a step that changed nothing") })
  }

  @Test("without a log, slots without a transition stay on the fast path")
  func noLogNoCost() throws {
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("idle")
      sm.addState("running")
      sm.when("start", transitionFrom: "idle", to: "running")
    })
    let slots = machine.stateMachineDefinition.compiled.fastSlots
    #expect(!slots.contains(.full))
    let logged = try loggedMachine(TestRecorder())
    #expect(logged.stateMachineDefinition.compiled.fastSlots.allSatisfy { $0 == .full })
  }
}
