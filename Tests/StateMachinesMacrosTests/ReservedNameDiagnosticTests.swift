import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Names whose generated member would take a name every machine object already has (`state`,
/// `stateMachineDefinition`, `availableEvents`, …).
@Suite struct ReservedNameDiagnosticTests {
  @Test func eventNamedStateIsAnError() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.when("state", transitionFrom: "off", to: "off")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.when("state", transitionFrom: "off", to: "off")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "event 'state' would generate 'state', which every state machine object already has", line: 5,
          column: 13, severity: .error)
      ])
  }

  @Test func stateWhoseQueryIsAProtocolMemberIsAnError() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState("state machine terminated")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.addState("state machine terminated")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "state 'state machine terminated' would generate 'isStateMachineTerminated', which every state machine object already has",
          line: 5, column: 17, severity: .error)
      ])
  }
}
