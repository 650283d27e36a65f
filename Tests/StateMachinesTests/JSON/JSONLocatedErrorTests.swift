import Foundation
import StateMachines
import Testing

/// An error the definition's checks find in a JSON document is thrown at where its culprits are
/// written (Hierarchy §7): ``DefinitionError/located(_:at:)``, one location per node that causes
/// it. (`Tools/Tests` runs a chart per error case through `statemachine validate`.)
@Suite("JSON errors found by the checks are located")
struct JSONLocatedErrorTests {
  func error(_ text: String, _ build: (StateMachineBuilder<DynamicStateMachine>) -> Void = { _ in }) -> DefinitionError? {
    do {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8), build)
      return nil
    } catch {
      return error
    }
  }

  @Test("a fork whose targets share a region names both targets")
  func fork() {
    let text = """
      {"states": {
        "s": {"states": {"a": {}, "b": {}}},
        "t": {"on": {"e": {"target": ["s/a", "s/b"]}}}
      }}
      """
    #expect(
      error(text)
        == .located(
          .invalidStructure("transition 'e': 's/a' and 's/b' are not in distinct regions of one parallel state"),
          at: [
            DefinitionLocation(line: 3, column: 33, pointer: "/states/t/on/e/target/0"),
            DefinitionLocation(line: 3, column: 40, pointer: "/states/t/on/e/target/1"),
          ]))
  }

  @Test("a state declared twice with different kinds in TB JSON names both declarations")
  func duplicate() {
    let text = """
      {"states": [
        {"name": "a", "type": "state"},
        {"name": "a", "type": "parallel", "regions": [[{"name": "x", "type": "state"}]]}
      ]}
      """
    #expect(
      error(text)
        == .located(
          .duplicateState("a"),
          at: [
            DefinitionLocation(line: 2, column: 3, pointer: "/states/0"),
            DefinitionLocation(line: 3, column: 3, pointer: "/states/1"),
          ]))
  }

  @Test("the description puts the location first, as the format's own errors do")
  func description() {
    let error = DefinitionError.located(
      .internalTransitionChangesState(event: "go"),
      at: [DefinitionLocation(line: 1, column: 32, pointer: "/states/a/on/go"), DefinitionLocation(line: 2, column: 1)])
    #expect(
      error.description
        == "1:32: transition 'go' is internal but does not lead from a state to itself (at '/states/a/on/go'); also 2:1")
    #expect(error.kind == .located)
  }

  @Test("a culprit added in code after loading has no location: the error is thrown as it is")
  func culpritInCode() {
    let text = #"{"states": {"a": {"on": {"go": "b"}}, "b": {}}}"#
    let thrown = error(text) { sm in sm.addHistory("h") }
    #expect(thrown == .invalidStructure("history 'h' must be the child of a compound or parallel state"))
  }
}
