import StateMachines
import Testing

// Definition checks the macro cannot make: the names below are variables, not literals, so only
// the runtime sees them. An invalid definition must never crash: it reports the culprit and
// rejects every event.

private let undeclaredStateName = "nowhere"
private let undeclaredEventName = "ghost"
private let emptyName = ""
private let someState = "a"
private let otherState = "b"

@Suite("Definition validation")
struct DefinitionTests {
  // MARK: A valid definition

  @Test("a valid definition has no error; validate and init(validating:) do not throw")
  func validDefinition() throws {
    #expect(Subscription.stateMachine.definitionError == nil)
    try Subscription.stateMachine.validate()
    let definition = try StateMachineDefinition<Subscription>(validating: { sm in
      sm.addState(someState)
      sm.addState(otherState)
      sm.when("go", transitionFrom: someState, to: otherState)
    })
    #expect(definition.definitionError == nil)
    #expect(definition.states == ["a", "b"])
    #expect(definition.events == ["go"])
  }

  // MARK: Undeclared state

  @Test("a transition to an undeclared state sets definitionError")
  func undeclaredTargetState() {
    let expected = DefinitionError.undeclaredState("nowhere", context: "transition 'explode'")
    #expect(UndeclaredTargetMachine.stateMachine.definitionError == expected)
    #expect(definitionError { try UndeclaredTargetMachine.stateMachine.validate() } == expected)
    #expect(expected.description == "transition 'explode' names undeclared state 'nowhere'")
  }

  @Test("init(validating:) throws the undeclared state")
  func undeclaredTargetStateThrows() {
    let error = definitionError {
      _ = try StateMachineDefinition<UndeclaredTargetMachine>(validating: { sm in
        sm.addState("idle")
        sm.addState("busy")
        sm.when("start", transitionFrom: "idle", to: "busy")
        sm.when("explode", transitionFrom: "idle", to: undeclaredStateName)
      })
    }
    #expect(error == .undeclaredState("nowhere", context: "transition 'explode'"))
  }

  @Test("a transition from an undeclared state is rejected too")
  func undeclaredSourceState() {
    let definition = StateMachineDefinition<Subscription> { sm in
      sm.addState(someState)
      sm.when("go", transitionFrom: [someState, undeclaredStateName], to: someState)
    }
    #expect(definition.definitionError == .undeclaredState("nowhere", context: "transition 'go'"))
  }

  @Test("an object of an invalid definition rejects every event with invalidDefinition")
  func invalidDefinitionRejectsEveryEvent() {
    let expected = StateMachineErrorCase.invalidDefinition(
      .undeclaredState("nowhere", context: "transition 'explode'"))
    let machine = UndeclaredTargetMachine()
    #expect(machine.state == "idle")
    #expect(machine.isIdle)
    #expect(!machine.start())
    #expect(!machine.explode())
    #expect(!machine.fire("start"))
    #expect(!machine.canStart)
    #expect(!machine.can("start"))
    #expect(machine.availableEvents.isEmpty)
    #expect(stateMachineError { try machine.fireOrThrow("start") } == expected)
    #expect(stateMachineError { try machine.fireOrThrow("explode") } == expected)
    #expect(machine.state == "idle")
    #expect(machine.startCallbacks == 0)
  }

  // MARK: Undeclared event

  @Test("a callback for an undeclared event sets definitionError; events are rejected")
  func undeclaredCallbackEvent() {
    let expected = DefinitionError.undeclaredEvent("ghost", context: "after('ghost')")
    #expect(UndeclaredCallbackMachine.stateMachine.definitionError == expected)
    let machine = UndeclaredCallbackMachine()
    #expect(!machine.go())
    #expect(stateMachineError { try machine.fireOrThrow("go") } == .invalidDefinition(expected))
    #expect(machine.state == "a")
    #expect(machine.callbackRuns == 0)
  }

  @Test("a before callback for an undeclared event is rejected")
  func undeclaredBeforeEvent() {
    let error = definitionError {
      _ = try StateMachineDefinition<Subscription>(validating: { sm in
        sm.addState(someState)
        sm.addState(otherState)
        sm.when("go", transitionFrom: someState, to: otherState)
        sm.before(undeclaredEventName) { _ in }
      })
    }
    #expect(error == .undeclaredEvent("ghost", context: "before('ghost')"))
  }

  // MARK: No states

  @Test("a definition without states is invalid")
  func noStates() {
    let definition = StateMachineDefinition<Subscription> { _ in }
    #expect(definition.definitionError == .noStates)
    #expect(definition.states.isEmpty)
    #expect(definition.initialState == "")
    #expect(definitionError { _ = try StateMachineDefinition<Subscription>(validating: { _ in }) } == .noStates)
  }

  @Test("an object whose definition has no states rejects its events and does not crash")
  func noStatesObject() {
    let machine = StatelessMachine()
    #expect(StatelessMachine.stateMachine.definitionError == .noStates)
    #expect(machine.state == "")
    #expect(!machine.go())
    #expect(!machine.canGo)
    #expect(!machine.isInState("a"))
    #expect(machine.availableEvents.isEmpty)
    #expect(stateMachineError { try machine.fireOrThrow("go") } == .invalidDefinition(.noStates))
    #expect(stateMachineError { try machine.restoreState("a") } == .unknownState("a"))
  }

  // MARK: Empty names

  @Test("an empty state name is rejected")
  func emptyStateName() {
    let definition = StateMachineDefinition<Subscription> { sm in
      sm.addState(someState)
      sm.addState(emptyName)
    }
    #expect(definition.definitionError == .emptyName(context: "addState"))
  }

  @Test("an empty event name is rejected")
  func emptyEventName() {
    let definition = StateMachineDefinition<Subscription> { sm in
      sm.addState(someState)
      sm.addState(otherState)
      sm.when(emptyName, transitionFrom: someState, to: otherState)
    }
    #expect(definition.definitionError == .emptyName(context: "a transition's event"))
  }

  @Test("an empty target state is rejected")
  func emptyTargetState() {
    let expected = DefinitionError.emptyName(context: "transition 'drop'")
    #expect(EmptyTargetMachine.stateMachine.definitionError == expected)
    let machine = EmptyTargetMachine()
    #expect(!machine.go())
    #expect(stateMachineError { try machine.fireOrThrow("drop") } == .invalidDefinition(expected))
    #expect(machine.state == "a")
  }

  @Test("a callback with an empty event name is rejected")
  func emptyCallbackEventName() {
    let definition = StateMachineDefinition<Subscription> { sm in
      sm.addState(someState)
      sm.addState(otherState)
      sm.when("go", transitionFrom: someState, to: otherState)
      sm.after(emptyName) { _ in }
    }
    #expect(definition.definitionError == .emptyName(context: "after('')"))
  }
}

// MARK: - Models

/// `explode` leads to a state that was never added.
@StateMachine
final class UndeclaredTargetMachine {
  var startCallbacks = 0

  static let stateMachine = StateMachineDefinition<UndeclaredTargetMachine> { sm in
    sm.addState("idle")
    sm.addState("busy")
    sm.when("start", transitionFrom: "idle", to: "busy")
    sm.when("explode", transitionFrom: "idle", to: undeclaredStateName)
    sm.before("start") { $0.startCallbacks += 1 }
  }
}

/// An `after` callback names an event that no transition declares.
@StateMachine
final class UndeclaredCallbackMachine {
  var callbackRuns = 0

  static let stateMachine = StateMachineDefinition<UndeclaredCallbackMachine> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.after("go") { $0.callbackRuns += 1 }
    sm.after(undeclaredEventName) { $0.callbackRuns += 1 }
  }
}

/// An event whose states were never added: the definition has no states at all.
@StateMachine
final class StatelessMachine {
  static let stateMachine = StateMachineDefinition<StatelessMachine> { sm in
    sm.when("go", transitionFrom: someState, to: otherState)
  }
}

/// `drop` leads to a state with an empty name.
@StateMachine
final class EmptyTargetMachine {
  static let stateMachine = StateMachineDefinition<EmptyTargetMachine> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.when("drop", transitionFrom: "a", to: emptyName)
  }
}
