import Dispatch
import Foundation
import StateMachines
import Testing

// Persistence hardening (Semantics §Persistence and bad input): `restoreState` from inside
// a callback, termination across a `Codable` round trip, and encoding while other threads fire.

/// `crash` terminates the job where it is (`die`); `finish` enters the final state.
@StateMachine
final class DyingJob: Codable {
  static let stateMachine = StateMachineDefinition<DyingJob> { sm in
    sm.addState("running")
    sm.addFinalState("finished")
    sm.when("finish", transitionFrom: "running", to: "finished")
    sm.die(on: "crash", from: ["running"])
  }
}

/// A `Codable` job whose every callback writes a line to ``log``: decoding one must run none.
@StateMachine
final class RecordedJob: Codable {
  static let log = TestRecorder()
  static let stateMachine = StateMachineDefinition<RecordedJob> { sm in
    sm.addState("queued")
    sm.addState("running")
    sm.addFinalState("finished")
    sm.when("run", transitionFrom: "queued", to: "running")
    sm.when("finish", transitionFrom: "running", to: "finished")
    for state in ["queued", "running", "finished"] {
      sm.onEntry(state) { _ in RecordedJob.log.append("entry \(state)") }
      sm.onExit(state) { _ in RecordedJob.log.append("exit \(state)") }
    }
    for event in ["run", "finish"] {
      sm.before(event) { _ in RecordedJob.log.append("before \(event)") }
      sm.after(event) { _ in RecordedJob.log.append("after \(event)") }
    }
    sm.didTransition { _, transition in
      RecordedJob.log.append("observed \(transition.from)-\(transition.event)->\(transition.to)")
    }
  }
}

/// A `Sendable`, `Codable` toggle driven from several threads while it is encoded.
@StateMachine
final class SharedCodableToggle: Codable, @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<SharedCodableToggle> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("go", transitionFrom: "off", to: "on")
    sm.when("back", transitionFrom: "on", to: "off")
    sm.after("go") { _ in }
  }
}

/// A machine whose `go` callback tries to restore the state mid-step.
private func restoringMachine(_ errors: ErrorBox) throws -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    sm.addState("a")
    sm.addState("b")
    sm.addFinalState("done")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.after("go") { machine in
      do { try machine.restoreState("done") } catch { errors.error = error as? StateMachineError }
    }
  })
}

final class ErrorBox: @unchecked Sendable {
  var error: StateMachineError?
}

@Suite("Persistence hardening", .timeLimit(.minutes(1)))
struct PersistenceHardeningTests {
  @Test("restoreState from a callback of the same machine throws busy and changes nothing")
  func restoreInsideCallback() throws {
    let errors = ErrorBox()
    let machine = try restoringMachine(errors)
    #expect(machine.fire("go"))
    #expect(errors.error.map(StateMachineErrorCase.init) == .busy("restoreState"))
    #expect(machine.state == "b")
    #expect(!machine.isStateMachineTerminated)
    // Outside a step it works, and it is an explicit reset.
    try machine.restoreState("done")
    #expect(machine.isStateMachineTerminated)
    try machine.restoreState("a")
    #expect(!machine.isStateMachineTerminated)
    #expect(machine.fire("go"))
  }

  @Test("a machine terminated by die stays terminated after a Codable round trip")
  func dieSurvivesRoundTrip() throws {
    let job = DyingJob()
    #expect(job.crash())
    #expect(job.isStateMachineTerminated)
    let data = try JSONEncoder().encode(job)
    let json = String(decoding: data, as: UTF8.self)
    #expect(json.contains("\"terminated\":true"))
    let copy = try JSONDecoder().decode(DyingJob.self, from: data)
    #expect(copy.state == "running")
    #expect(copy.isStateMachineTerminated)
    #expect(!copy.finish())
    #expect(stateMachineError { try copy.fireOrThrow("finish") } == .terminated(event: "finish", state: "running"))
    // restoreState is the explicit reset.
    try copy.restoreState("running")
    #expect(copy.finish())
  }

  @Test("a live machine still encodes as the plain state name, and a final state stays terminated")
  func plainEncodingAndFinalState() throws {
    let job = DyingJob()
    #expect(String(decoding: try JSONEncoder().encode(job), as: UTF8.self) == "{\"state\":\"running\"}")
    #expect(job.finish())
    let copy = try JSONDecoder().decode(DyingJob.self, from: try JSONEncoder().encode(job))
    #expect(copy.state == "finished")
    #expect(copy.isStateMachineTerminated)
  }

  @Test("a decoded machine runs no callback and keeps unknown states out")
  func decodingRejectsUnknownStates() throws {
    let data = Data("{\"state\":{\"state\":\"gone\",\"terminated\":true}}".utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(DyingJob.self, from: data) }

    // A job in `running`, encoded and decoded: neither decoding nor the copy's first use runs
    // an entry action (or anything else); its next event runs them all.
    let job = RecordedJob()
    #expect(job.run())
    #expect(RecordedJob.log.lines.contains("entry running"))
    let encoded = try JSONEncoder().encode(job)
    let linesBefore = RecordedJob.log.lines.count
    let copy = try JSONDecoder().decode(RecordedJob.self, from: encoded)
    #expect(copy.state == "running")
    #expect(copy.canFinish)
    #expect(RecordedJob.log.lines.count == linesBefore)
    #expect(copy.finish())
    #expect(
      RecordedJob.log.lines.dropFirst(linesBefore) == [
        "before finish", "exit running", "entry finished", "after finish", "observed running-finish->finished",
      ])
  }

  @Test("encoding a Sendable object while other threads fire takes consistent snapshots")
  func encodingWhileFiring() {
    let toggle = SharedCodableToggle()
    let invalid = TestRecorder()
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for index in 0..<2_000 {
        if worker % 2 == 0 {
          if index % 2 == 0 { toggle.go() } else { toggle.back() }
        } else {
          guard let data = try? JSONEncoder().encode(toggle),
            let copy = try? JSONDecoder().decode(SharedCodableToggle.self, from: data),
            copy.state == "on" || copy.state == "off"
          else {
            invalid.increment("snapshot")
            continue
          }
        }
      }
    }
    #expect(invalid["snapshot"] == 0)
  }
}
