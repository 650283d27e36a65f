import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Timeouts and notifications deliver events from another thread, so the class must be isolated
/// to a global actor or declare `Sendable`. (That Sendable and `@MainActor` classes with timeouts
/// compile without it is shown by the runtime tests' TimeoutTests models.)
@Suite struct TriggerIsolationDiagnosticTests {
  private func lampExpansion(_ definition: String, attributes: String = "") -> String {
    """
    \(attributes)final class Lamp {
    \(definition)

    \(ExpectedMembers.storage("Lamp"))

    \(ExpectedMembers.ids("Lamp", events: [("switchOff", "switchOff")], states: [("on", "on"), ("off", "off")]))

    \(ExpectedMembers.event("switchOff", "switchOff", in: "Lamp"))

    \(ExpectedMembers.state("on", "on", in: "Lamp"))

    \(ExpectedMembers.state("off", "off", in: "Lamp"))
    }

    \(ExpectedMembers.conformance("Lamp"))
    """
  }

  @Test func timeoutInAPlainClassIsAnErrorWithAMainActorFixIt() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Lamp> { sm in
          sm.addState("on")
          sm.addState("off")
          sm.when("switchOff", transitionFrom: "on", to: "off", after: .seconds(60))
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Lamp {\n\(definition)\n}",
      expandedSource: lampExpansion(definition),
      diagnostics: [
        DiagnosticSpec(
          message:
            "timeouts and notifications deliver events from another thread; 'Lamp' must be isolated to a global actor (such as '@MainActor') or declare 'Sendable'",
          line: 6, column: 66, severity: .error,
          fixIts: [FixItSpec(message: "isolate the class to '@MainActor'")])
      ],
      applyFixIts: ["isolate the class to '@MainActor'"],
      fixedSource: """
        @MainActor
        @StateMachine
        final class Lamp {
          static let stateMachine = StateMachineDefinition<Lamp> { sm in
            sm.addState("on")
            sm.addState("off")
            sm.when("switchOff", transitionFrom: "on", to: "off", after: .seconds(60))
          }
        }
        """)
  }
}
