import NameModelFixture
import SwiftDiagnostics
import Testing

/// The macro half of the names table (Hierarchy N4–N6, Semantics §Names): every row of
/// ``NameModelTable/rows`` added to the chart in a `@StateMachine` class and expanded. The runtime
/// half builds the same rows; both compare with the row's message, so a definition that compiles is
/// valid at run time.
@Suite struct NameModelTableTests {
  /// Diagnostics about generated members (a name that cannot form a Swift identifier, a clash of
  /// identifiers): the macro's own concern, with no runtime counterpart.
  static let memberDiagnostics: Set<MessageID> = Set(
    ["invalidIdentifier", "keyword", "sameIdentifier", "reservedName", "clashesWithMember"].map {
      MessageID(domain: "StateMachines", id: $0)
    })

  @Test func theChartAloneExpandsWithoutErrors() {
    #expect(errors(NameModelTable.chart).isEmpty)
  }

  /// One case per row (an expansion takes a while in a debug build: the cases run in parallel).
  @Test(arguments: NameModelTable.rows.indices)
  func everyRowIsAcceptedOrRejectedWithItsMessage(row index: Int) {
    let row = NameModelTable.rows[index]
    let messages = errors(NameModelTable.chart + row.steps)
    let source = NameModelTable.source(row.steps)
    if let expected = row.expected {
      // The runtime stops at the first error; the macro reports it first, and may go on.
      #expect(messages.first == expected, "\(source): \(messages)")
    } else {
      #expect(messages.isEmpty, "\(source)")
    }
  }

  /// The messages of the errors that expanding `steps` gives, but for generated-member ones.
  private func errors(_ steps: [NameStep]) -> [String] {
    let source = """
      @StateMachine
      final class Row {
        static let stateMachine = StateMachineDefinition<Row> { sm in
      \(NameModelTable.source(steps))
        }
      }
      """
    return expansionDiagnostics(source)
      .filter { $0.diagMessage.severity == .error && !Self.memberDiagnostics.contains($0.diagMessage.diagnosticID) }
      .map { $0.message }
  }
}
