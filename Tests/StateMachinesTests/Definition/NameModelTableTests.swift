import NameModelFixture
import StateMachines
import Testing

/// The runtime half of the names table (Hierarchy N4–N6, Semantics §Names): every row of
/// ``NameModelTable/rows`` built with the builder on top of the chart. The macro half
/// (`StateMachinesMacrosTests`) expands the same rows; both compare with the row's message, so they
/// accept and reject alike.
@Suite struct NameModelTableTests {
  @Test func theTableHasAtLeastTwoHundredRows() {
    #expect(NameModelTable.rows.count >= 200)
  }

  @Test func theChartAloneIsValid() {
    #expect(definitionError(NameModelTable.chart) == nil)
  }

  @Test func everyRowIsAcceptedOrRejectedWithItsMessage() {
    for row in NameModelTable.rows {
      let message = definitionError(NameModelTable.chart + row.steps)
      #expect(message == row.expected, "\(NameModelTable.source(row.steps))")
    }
  }

  /// The message of the definition error of `steps`, or `nil` if the definition is valid.
  private func definitionError(_ steps: [NameStep]) -> String? {
    StateMachineDefinition<DynamicStateMachine> { sm in
      for step in steps { apply(step, to: sm) }
    }.definitionError?.description
  }

  private func apply(_ step: NameStep, to sm: StateMachineBuilder<DynamicStateMachine>) {
    switch step {
    case .add(let name): sm.addState(name)
    case .addIn(let name, let scope): sm.addState(scope) { s in s.addState(name) }
    case .historyIn(let name, let scope): sm.addState(scope) { s in s.addHistory(name) }
    case .regionsIn(let name, let regions, let scope): sm.addState(scope) { s in s.addParallelState(name, regions: regions) }
    case .parallel(let name, let regions): sm.addParallelState(name) { s in for region in regions { s.addState(region) } }
    case .target(let name): sm.when("go", transitionFrom: "home", to: name)
    case .source(let name): sm.when("go", transitionFrom: name, to: "home")
    case .targetIn(let name, let scope): sm.addState(scope) { s in s.when("go", transitionFrom: name, to: name) }
    }
  }
}
