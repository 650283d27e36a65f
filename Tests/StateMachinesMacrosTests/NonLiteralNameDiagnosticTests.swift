import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Names the macro cannot read: a warning, no member, and no guessing about references.
@Suite struct NonLiteralNameDiagnosticTests {
  @Test func stateFromExpressionWarnsAndGeneratesNothingForIt() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let dimmed = "dimmed"
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState(Light.dimmed)
          sm.when("dim", transitionFrom: "off", to: "dimmed")
          sm.onEntry("dimmed") { _ in }
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let dimmed = "dimmed"
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.addState(Light.dimmed)
            sm.when("dim", transitionFrom: "off", to: "dimmed")
            sm.onEntry("dimmed") { _ in }
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [("dim", "dim")], states: [("off", "off")]))

        \(ExpectedMembers.event("dim", "dim", in: "Light"))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "state name is not a string literal, so no member is generated for it; use 'isInState(_:)'", line: 6,
          column: 17, severity: .warning)
      ])
  }

  @Test func eventFromExpressionWarnsAndGeneratesNothingForIt() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState("on")
          for event in ["flip", "toggle"] {
            sm.when(event, transitionFrom: "off", to: "on")
          }
          sm.when("reset", transitionFrom: "on", to: "off")
          sm.before("flip") { _ in }
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.addState("on")
            for event in ["flip", "toggle"] {
              sm.when(event, transitionFrom: "off", to: "on")
            }
            sm.when("reset", transitionFrom: "on", to: "off")
            sm.before("flip") { _ in }
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [("reset", "reset")], states: [("off", "off"), ("on", "on")]))

        \(ExpectedMembers.event("reset", "reset", in: "Light"))

        \(ExpectedMembers.state("off", "off", in: "Light"))

        \(ExpectedMembers.state("on", "on", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "event name is not a string literal, so no member is generated for it; use 'fire(_:)'", line: 7,
          column: 15, severity: .warning)
      ])
  }
}
