import Foundation
import Testing

@testable import StateMachines

/// Planning a nested chart (Hierarchy §6) reserves room for every candidate slot at once; a
/// definition keeps little more than it uses when most slots take the full step after all.
@Suite("Step plans: memory")
struct StepPlanMemoryTests {
  @Test("slots left to the full step (a final state entered) do not keep their reserved room")
  func unplannedSlotsGiveBackTheirRoom() throws {
    // 50 leaves of `p`, each with `go` to the next (planned); 20 events on `p` to its final state
    // `f`, which enter a final state and so take the full step (not planned).
    let leaves = (0..<50).map { #""a\#($0)": {"on": {"go": "a\#(($0 + 1) % 50)"}}"# }
    let events = (0..<20).map { #""e\#($0)": "p/f""# }
    let text =
      #"{"format": "statemachines/1", "states": {"p": {"states": {"#
      + leaves.joined(separator: ", ") + #", "f": {"type": "final"}}, "on": {"# + events.joined(separator: ", ")
      + "}}}}"
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    guard case .statechart(let chart) = definition.compiled.engine else {
      Issue.record("a nested definition compiled to the flat engine")
      return
    }
    let plans = chart.plans
    #expect(plans.candidates.count == 50)
    #expect(plans.candidates.capacity <= 100)
    // Both kinds of slot still behave.
    let machine = DynamicStateMachine(definition)
    #expect(machine.fire("go"))
    #expect(machine.state == "p/a1")
    #expect(machine.fire("e7"))
    #expect(machine.state == "p/f")
  }
}
