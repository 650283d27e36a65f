import StateMachines
import Testing

// Foreign event IDs: an event ID of another definition used to fire an unrelated transition and
// leave the machine in an undeclared state "". IDs now carry their definition; a foreign ID, or a
// model that another definition drives, is rejected with `.foreignID` and changes nothing.

private func door() throws -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    sm.addState("closed")
    sm.addState("opened")
    sm.when("open", transitionFrom: "closed", to: "opened")
  })
}

private func counter() throws -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for state in ["zero", "one", "two", "three"] { sm.addState(state) }
    sm.when("a", transitionFrom: "zero", to: "one")
    sm.when("b", transitionFrom: "zero", to: "two")
    sm.when("c", transitionFrom: "zero", to: "three")
  })
}

@Suite("IDs of another definition")
struct ForeignIDTests {
  @Test("an event ID of another definition is rejected and changes nothing")
  func foreignEventID() throws {
    let door = try door()
    let counter = try counter()
    let definition = door.stateMachineDefinition
    let foreign = counter.stateMachineDefinition.eventID("c")
    #expect(!definition.fire(foreign, on: door))
    #expect(!definition.fire(foreign, payload: 1, on: door))
    #expect(!definition.can(foreign, on: door))
    #expect(stateMachineError { try definition.fireOrThrow(foreign, on: door) } == .foreignID)
    #expect(door.state == "closed")
    #expect(door.fire("open"))
  }

  @Test("a model driven by another definition is rejected")
  func foreignModel() throws {
    let door = try door()
    let counter = try counter()
    let definition = door.stateMachineDefinition
    #expect(!definition.fire(definition.eventID("open"), on: counter))
    #expect(counter.state == "zero")
    // A state index past this definition's table is never read.
    #expect(counter.fire("c"))
    #expect(!definition.fire(definition.eventID("open"), on: counter))
    #expect(!definition.can(definition.eventID("open"), on: counter))
    #expect(stateMachineError { try definition.fireOrThrow(definition.eventID("open"), on: counter) } == .foreignID)
    #expect(counter.state == "three")
  }

  @Test("a state ID of another definition is never current")
  func foreignStateID() throws {
    let door = try door()
    let counter = try counter()
    // Index 0 in both definitions: "closed" and "zero".
    #expect(!door.stateMachineDefinition.isInState(counter.stateMachineDefinition.stateID("zero"), on: door))
    #expect(door.stateMachineDefinition.isInState(door.stateMachineDefinition.stateID("closed"), on: door))
  }
}
