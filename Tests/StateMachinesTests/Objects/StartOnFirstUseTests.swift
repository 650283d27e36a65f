import Testing

@testable import StateMachines

// Start on first use (Semantics "A machine starts … on `startStateMachine()` or on its first use,
// whichever comes first"): an initial state's entry actions and timeouts used to run only if the
// user remembered to call `startStateMachine()`.

/// The initial state `idle` has an entry action that counts.
@StateMachine
final class Greeter {
  private(set) var greetings = 0
  static let stateMachine = StateMachineDefinition<Greeter> { sm in
    sm.addState("idle")
    sm.addState("busy")
    sm.when("go", transitionFrom: "idle", to: "busy")
    sm.onEntry("idle") { $0.greetings += 1 }
  }
}

/// The initial state `on` switches off by itself after a minute.
@StateMachine
final class SelfStartingLamp: @unchecked Sendable {
  static let clock = ManualClock()
  static let stateMachine = StateMachineDefinition<SelfStartingLamp> { sm in
    sm.clock = SelfStartingLamp.clock
    sm.addState("on")
    sm.addState("off")
    sm.when("switchOff", transitionFrom: "on", to: "off", after: .seconds(60))
  }
}

@Suite("Start on first use", .timeLimit(.minutes(1)))
struct StartOnFirstUseTests {
  @Test("the first event enters the initial state before its step")
  func firstEventStarts() {
    let greeter = Greeter()
    #expect(greeter.greetings == 0)
    #expect(greeter.go())
    #expect(greeter.greetings == 1)
  }

  @Test("the first query starts the machine; an explicit start afterwards does nothing")
  func firstQueryStarts() throws {
    let greeter = Greeter()
    #expect(greeter.isIdle)
    #expect(greeter.greetings == 1)
    try greeter.startStateMachine()
    #expect(greeter.greetings == 1)
    _ = greeter.state
    _ = greeter.canGo
    #expect(greeter.greetings == 1)
  }

  @Test("a machine started explicitly does not start again on first use")
  func explicitStart() throws {
    let greeter = Greeter()
    try greeter.startStateMachine()
    #expect(greeter.greetings == 1)
    #expect(greeter.go())
    #expect(greeter.greetings == 1)
  }

  @Test("the initial state's timeout is armed on first use and fires")
  func timeoutArmedOnFirstUse() async {
    let lamp = SelfStartingLamp()
    #expect(Triggers.armedTimeoutCount(SelfStartingLamp.stateMachine, of: lamp) == 0)
    #expect(lamp.isOn)
    #expect(Triggers.armedTimeoutCount(SelfStartingLamp.stateMachine, of: lamp) == 1)
    await SelfStartingLamp.clock.advance(by: .seconds(60))
    #expect(lamp.isOff)
  }

  @Test("restoreState counts as a start: it arms the state but runs no entry action")
  func restoreStarts() throws {
    let greeter = Greeter()
    try greeter.restoreState("idle")
    #expect(greeter.isIdle)
    #expect(greeter.greetings == 0)
  }
}
