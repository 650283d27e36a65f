import Foundation
import Testing

@testable import StateMachines

/// A failure of the work, told apart in the log.
struct FetchFailure: Error, CustomStringConvertible {
  var description: String { "fetch failed" }
}

/// A callback's throw, told apart in the log.
struct CallbackFailure: Error, CustomStringConvertible {
  var description: String { "callback threw" }
}

/// Results that nothing handles (Invoke I14): they go to the definition's log with their
/// `id#generation`, and the machine carries on.
@Suite(.timeLimit(.minutes(1)))
struct InvokeErrorLogTests {
  /// A machine whose work `fetch` in `loading` fails or succeeds as its gate says; `declare`
  /// adds the result transitions.
  static func machine(
    _ lines: TestRecorder, _ gates: InvocationGates,
    declare: (StateMachineBuilder<DynamicStateMachine>) -> Void = { _ in }
  ) -> DynamicStateMachine {
    DynamicStateMachine(
      StateMachineDefinition { sm in
        sm.log = StateMachineLog { lines.append($0) }
        sm.addState("idle")
        sm.addState("loading")
        sm.addState("ready")
        sm.addState("failed")
        sm.when("load", transitionFrom: ["idle", "ready", "failed"], to: "loading")
        sm.when("cancel", transitionFrom: "loading", to: "idle")
        sm.invoke("fetch", in: "loading") { context in
          if await gates.wait(context.generation) { throw FetchFailure() }
          return 42
        }
        declare(sm)
      })
  }

  static func lines(_ lines: TestRecorder, containing text: String) -> [String] {
    lines.lines.filter { $0.contains(text) }
  }

  @Test("I14: an error.invoke.* that no transition names is logged as unhandled, with id#generation")
  func unnamedFailureIsLogged() async {
    let (lines, gates) = (TestRecorder(), InvocationGates())
    let machine = Self.machine(lines, gates)
    #expect(machine.fire("load"))
    #expect(machine.fire("cancel"))
    #expect(machine.fire("load"))
    gates.open(2, failing: true)
    gates.open(1, failing: true)
    await machine.waitForInvocations()
    // Only the current start's failure: the first one's is stale, dropped (I7), not unhandled.
    #expect(
      Self.lines(lines, containing: "unhandled")
        == ["[DynamicStateMachine] unhandled 'error.invoke.fetch' of 'fetch#2': no transition took it; error: fetch failed"])
    #expect(machine.state == "loading")
    #expect(machine.invocationStatistics == InvocationStatistics(started: 2, finished: 2, delivered: 1, dropped: 1))
  }

  @Test("I14: an error.invoke.* whose transition does not take it (its guard says no) is logged as unhandled")
  func untakenFailureIsLogged() async {
    let (lines, gates) = (TestRecorder(), InvocationGates())
    let machine = Self.machine(lines, gates) { sm in
      sm.whenInvokeDone("fetch", transitionTo: "ready")
      sm.whenInvokeFailed("fetch", transitionTo: "failed").guarded { _ in false }
    }
    #expect(machine.fire("load"))
    gates.open(1, failing: true)
    await machine.waitForInvocations()
    #expect(Self.lines(lines, containing: "unhandled 'error.invoke.fetch' of 'fetch#1'").count == 1)
    #expect(machine.state == "loading")
    // A success that no transition takes is not a failure: nothing logged as unhandled.
    #expect(machine.fire("cancel"))
    #expect(machine.fire("load"))
    gates.open(2)
    await machine.waitForInvocations()
    #expect(machine.state == "ready")
    #expect(Self.lines(lines, containing: "unhandled").count == 1)
  }

  @Test("I14: a throw in a done transition's action goes to the log; the machine carries on")
  func throwingDoneActionIsLogged() async {
    let (lines, gates) = (TestRecorder(), InvocationGates())
    let machine = Self.machine(lines, gates) { sm in
      sm.whenInvokeDone("fetch", transitionTo: "ready").action { _ in throw CallbackFailure() }
    }
    #expect(machine.fire("load"))
    gates.open(1)
    await machine.waitForInvocations()
    let logged = Self.lines(lines, containing: "'done.invoke.fetch' of 'fetch#1' failed")
    #expect(logged.count == 1)
    #expect(logged.first?.contains("callback threw") == true)
    #expect(machine.invocationStatistics.delivered == 1)
    // The throwing action aborted the transition (the Semantics article); the next event is taken
    // as usual.
    #expect(machine.state == "loading")
    #expect(machine.fire("cancel"))
  }

  @Test("I14: a throw in an error transition's guard goes to the log, never a crash")
  func throwingErrorGuardIsLogged() async {
    let (lines, gates) = (TestRecorder(), InvocationGates())
    let machine = Self.machine(lines, gates) { sm in
      sm.whenInvokeFailed("fetch", transitionTo: "failed").guarded { _ in throw CallbackFailure() }
    }
    #expect(machine.fire("load"))
    gates.open(1, failing: true)
    await machine.waitForInvocations()
    let logged = Self.lines(lines, containing: "'error.invoke.fetch' of 'fetch#1' failed")
    #expect(logged.count == 1)
    #expect(logged.first?.contains("callback threw") == true)
    #expect(machine.state == "loading")
    #expect(machine.fire("cancel"))
  }

  @Test("I7, I14: a failure that no transition names, ending while a step leaves its state, is dropped, not unhandled")
  func unnamedFailureDuringExitIsStale() async {
    let (lines, gates) = (TestRecorder(), InvocationGates())
    let machine = DynamicStateMachine(
      StateMachineDefinition { sm in
        sm.log = StateMachineLog { lines.append($0) }
        sm.addState("idle")
        sm.addState("loading")
        sm.when("load", transitionFrom: "idle", to: "loading")
        sm.when("cancel", transitionFrom: "loading", to: "idle")
        sm.invoke("fetch", in: "loading") { context in
          if await gates.wait(context.generation) { throw FetchFailure() }
        }
        // The work fails while the step that leaves `loading` runs; its delivery waits for the
        // machine meanwhile (the pause gives it time to get there).
        sm.onExit("loading") { _ in
          gates.open(1, failing: true)
          Thread.sleep(forTimeInterval: 0.05)
        }
      })
    #expect(machine.fire("load"))
    #expect(machine.fire("cancel"))
    await machine.waitForInvocations()
    #expect(machine.invocationStatistics == InvocationStatistics(started: 1, finished: 1, delivered: 0, dropped: 1))
    #expect(Self.lines(lines, containing: "unhandled").isEmpty)
  }
}
