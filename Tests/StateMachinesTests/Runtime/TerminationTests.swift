import StateMachines
import Testing

// Terminating (Semantics step 1, Hierarchy S16): entering a final state, or a `die` transition,
// terminates the machine; it then rejects every event with `terminated` until a non-final state is
// restored.

/// `done` is final; `tooHardWork` dies in `working`; `panic` is a wildcard to `panicked`, to show
/// that a terminated machine rejects wildcards too.
@StateMachine
final class TerminationJob {
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<TerminationJob> { sm in
    sm.addState("idle")
    sm.addState("working")
    sm.addFinalState("done")
    sm.addState("panicked")
    sm.when("start", transitionFrom: "idle", to: "working")
    sm.when("finish", transitionFrom: "working", to: "done")
    sm.when("reset", transitionFrom: ["done", "working"], to: "idle")
    sm.when("panic", transitionFromAnyStateTo: "panicked")
    sm.die(on: "tooHardWork", from: ["working"])
    sm.onEntry("done") { $0.log.append("entry done") }
    sm.onExit("working") { $0.log.append("exit working") }
    sm.onEntry("working") { $0.log.append("entry working") }
    sm.before("tooHardWork") { job in job.log.append("before tooHardWork in \(job.state)") }
    sm.after("tooHardWork") { job in job.log.append("after tooHardWork in \(job.state)") }
    sm.after("finish") { job in job.log.append("after finish, terminated: \(job.isStateMachineTerminated)") }
    sm.didTransition { job, transition in
      job.log.append("observer \(transition.from)-\(transition.event)->\(transition.to)")
    }
  }
}

/// Names from arrays, as a definition loaded at run time has them.
private let terminationStates = ["open", "closed"]
private let terminationEvents = ["close", "crash", "reopen"]

/// A ticket built at run time: `closed` is final, `crash` dies in `open`.
private func makeTerminationTicket() throws(DefinitionError) -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    sm.addState(terminationStates[0])
    sm.addFinalState(terminationStates[1])
    sm.when(terminationEvents[0], transitionFrom: terminationStates[0], to: terminationStates[1])
    sm.die(on: terminationEvents[1], from: [terminationStates[0]])
    sm.when(terminationEvents[2], transitionFrom: terminationStates[1], to: terminationStates[0])
  })
}

/// A machine whose initial state is final.
@StateMachine
final class TerminationStone {
  static let stateMachine = StateMachineDefinition<TerminationStone> { sm in
    sm.initialState = "stone"
    sm.addFinalState("stone")
    sm.addState("dust")
    sm.when("crumble", transitionFrom: "stone", to: "dust")
  }
}

@Suite("Termination")
struct TerminationTests {
  @Test("entering a final state terminates the machine; every event is then rejected")
  func finalStateTerminates() {
    let job = TerminationJob()
    #expect(!job.isStateMachineTerminated)
    #expect(job.start())
    #expect(job.finish())
    #expect(job.state == "done")
    #expect(job.isStateMachineTerminated)
    // The entry action and after callback of the final transition still run.
    #expect(
      job.log == [
        "entry working", "observer idle-start->working", "exit working", "entry done",
        "after finish, terminated: true", "observer working-finish->done",
      ])
    job.log = []
    #expect(!job.reset())
    #expect(!job.panic())
    #expect(!job.fire("reset"))
    #expect(!job.canReset)
    #expect(!job.canPanic)
    #expect(!job.can("reset"))
    #expect(job.availableEvents.isEmpty)
    #expect(job.state == "done")
    #expect(job.log.isEmpty)
  }

  @Test("fireOrThrow on a terminated machine throws terminated")
  func terminatedThrows() {
    let job = TerminationJob()
    #expect(job.start())
    #expect(job.finish())
    #expect(stateMachineError { try job.fireOrThrow("reset") } == .terminated(event: "reset", state: "done"))
    #expect(stateMachineError { try job.fireOrThrow("panic") } == .terminated(event: "panic", state: "done"))
    // An event without any transition from the state is reported as terminated too.
    #expect(stateMachineError { try job.fireOrThrow("start") } == .terminated(event: "start", state: "done"))
    // Semantics step 1 comes before the unknown-event check: a terminated machine rejects any
    // event, known or not, as terminated.
    #expect(stateMachineError { try job.fireOrThrow("nope") } == .terminated(event: "nope", state: "done"))
    #expect(!job.fire("nope"))
  }

  @Test("die stays in the current state and terminates the machine")
  func dieTerminates() {
    let job = TerminationJob()
    #expect(job.start())
    job.log = []
    #expect(job.canTooHardWork)
    #expect(job.tooHardWork())
    #expect(job.state == "working")
    #expect(job.isWorking)
    #expect(job.isStateMachineTerminated)
    // Staying: no exit or entry action.
    #expect(
      job.log == [
        "before tooHardWork in working", "after tooHardWork in working",
        "observer working-tooHardWork->working",
      ])
    job.log = []
    #expect(!job.finish())
    #expect(!job.reset())
    #expect(!job.tooHardWork())
    #expect(!job.canFinish)
    #expect(job.availableEvents.isEmpty)
    #expect(stateMachineError { try job.fireOrThrow("finish") } == .terminated(event: "finish", state: "working"))
    #expect(job.state == "working")
    #expect(job.log.isEmpty)
  }

  @Test("die only fires from its from-states")
  func dieOnlyFromItsStates() {
    let job = TerminationJob()
    #expect(!job.canTooHardWork)
    #expect(!job.tooHardWork())
    let error = stateMachineError { try job.fireOrThrow("tooHardWork") }
    #expect(error == .noTransition(event: "tooHardWork", state: "idle"))
    #expect(!job.isStateMachineTerminated)
    #expect(job.start())
  }

  @Test("restoring a non-final state after a final state un-terminates the machine")
  func restoreAfterFinalState() throws {
    let job = TerminationJob()
    #expect(job.start())
    #expect(job.finish())
    try job.restoreState("idle")
    #expect(!job.isStateMachineTerminated)
    #expect(job.state == "idle")
    #expect(job.start())
    #expect(job.state == "working")
    // Restoring the final state terminates it again.
    try job.restoreState("done")
    #expect(job.isStateMachineTerminated)
    #expect(!job.reset())
  }

  @Test("restoring a state after die un-terminates the machine")
  func restoreAfterDie() throws {
    let job = TerminationJob()
    #expect(job.start())
    #expect(job.tooHardWork())
    #expect(job.isStateMachineTerminated)
    try job.restoreState("working")
    #expect(!job.isStateMachineTerminated)
    #expect(job.finish())
    #expect(job.state == "done")
  }

  @Test("a machine whose initial state is final starts terminated")
  func finalInitialState() {
    let stone = TerminationStone()
    #expect(stone.state == "stone")
    #expect(stone.isStateMachineTerminated)
    #expect(!stone.crumble())
    #expect(stateMachineError { try stone.fireOrThrow("crumble") } == .terminated(event: "crumble", state: "stone"))
  }

  @Test("final states and die in a definition built at run time, fired by name")
  func dynamicTermination() throws {
    let closed = try makeTerminationTicket()
    #expect(closed.stateMachineDefinition.finalStates == ["closed"])
    #expect(closed.fire("close"))
    #expect(closed.isStateMachineTerminated)
    #expect(!closed.fire("reopen"))
    #expect(!closed.can("reopen"))
    #expect(stateMachineError { try closed.fireOrThrow("reopen") } == .terminated(event: "reopen", state: "closed"))

    let crashed = try makeTerminationTicket()
    #expect(crashed.fire("crash"))
    #expect(crashed.isInState("open"))
    #expect(crashed.isStateMachineTerminated)
    #expect(!crashed.fire("close"))
    try crashed.restoreState("open")
    #expect(crashed.fire("close"))
    #expect(crashed.state == "closed")
  }
}
