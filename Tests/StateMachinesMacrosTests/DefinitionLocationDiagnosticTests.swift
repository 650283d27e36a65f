import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Finding the one `StateMachineDefinition` of a class.
@Suite struct DefinitionLocationDiagnosticTests {
  @Test func missingDefinitionOffersSkeletonAsFirstMember() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        var on = false
      }
      """,
      expandedSource: """
        final class Light {
          var on = false
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' class 'Light' has no 'static let' of type 'StateMachineDefinition<Light>'",
          line: 2, column: 13, severity: .error,
          fixIts: [FixItSpec(message: "add a state machine definition")])
      ],
      applyFixIts: ["add a state machine definition"],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("initial")
          }
          var on = false
        }
        """)
  }

  @Test func missingDefinitionInEmptyClassOffersSkeletonOnItsOwnLines() {
    assertExpansion(
      """
      @StateMachine
      final class Light {}
      """,
      expandedSource: """
        final class Light {}
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' class 'Light' has no 'static let' of type 'StateMachineDefinition<Light>'",
          line: 2, column: 13, severity: .error,
          fixIts: [FixItSpec(message: "add a state machine definition")])
      ],
      applyFixIts: ["add a state machine definition"],
      fixedSource: """
        @StateMachine
        final class Light {
            static let stateMachine = StateMachineDefinition<Light> { sm in
                sm.addState("initial")
            }
        }
        """)
  }

  @Test func secondDefinitionIsAnErrorWithNoteOnTheFirst() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
        }
        static let spare = StateMachineDefinition<Light> { sm in
          sm.addState("on")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
          }
          static let spare = StateMachineDefinition<Light> { sm in
            sm.addState("on")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' class 'Light' has more than one 'StateMachineDefinition'", line: 6, column: 14,
          severity: .error, notes: [NoteSpec(message: "'stateMachine' declared here", line: 3, column: 14)])
      ])
  }
}
