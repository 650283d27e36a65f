import StateMachines
import Testing

// The step limit (Semantics "One run to completion takes at most a bounded number of steps"):
// callbacks that keep firing events (a → b → a …) used to hang the calling thread forever.

/// `go` and `back` fire each other from their `after` callbacks, forever.
@StateMachine
final class PingLoop {
  static let lines = TestRecorder()
  static let stateMachine = StateMachineDefinition<PingLoop> { sm in
    sm.maxStepsPerRunToCompletion = 100
    sm.log = StateMachineLog { PingLoop.lines.append($0) }
    sm.addState("a")
    sm.addState("b")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.when("back", transitionFrom: "b", to: "a")
    sm.after("go") { $0.back() }
    sm.after("back") { $0.go() }
  }
}

/// The same loop without a log and with the default limit, on the light tier.
@StateMachine
final class DefaultLimitLoop {
  private(set) var steps = 0
  static let stateMachine = StateMachineDefinition<DefaultLimitLoop> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.when("back", transitionFrom: "b", to: "a")
    sm.after("go") {
      $0.steps += 1
      $0.back()
    }
    sm.after("back") {
      $0.steps += 1
      $0.go()
    }
  }
}

@Suite("Run-to-completion step limit")
struct RunToCompletionLimitTests {
  @Test("past the limit the caller gets a typed error naming the event and the count")
  func limitIsATypedError() {
    let loop = PingLoop()
    #expect(stateMachineError { try loop.fireOrThrow("go") } == .runToCompletionLimit(event: "go", steps: 100))
    // 100 steps: go, back, …, back; the last state reached is `a`; the queued `go` was dropped.
    #expect(loop.state == "a")
    #expect(PingLoop.lines.lines.contains { $0.contains("stopped after 100 steps") && $0.contains("dropped 1") })
    // The machine is idle and usable again; the generated method reports the transition it made.
    #expect(loop.go())
    #expect(loop.state == "a")
  }

  @Test("the default limit is 10,000 steps, on the light tier too")
  func defaultLimit() {
    let loop = DefaultLimitLoop()
    #expect(loop.go())
    #expect(loop.steps == 10_000)
    #expect(loop.state == "a")
  }

  @Test("a limit below 1 is an invalid definition")
  func invalidLimit() {
    let error = definitionError {
      _ = try DynamicStateMachine(validating: { sm in
        sm.maxStepsPerRunToCompletion = 0
        sm.addState("a")
      })
    }
    #expect(error == .invalidValue("0", context: "maxStepsPerRunToCompletion"))
  }
}
