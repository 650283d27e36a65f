import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Generated members against members the class declares itself.
@Suite struct MemberClashDiagnosticTests {
  @Test func eventClashingWithDeclaredMethodIsAnErrorWithNote() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        func activate() {}
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.when("activate", transitionFrom: "off", to: "off")
        }
      }
      """,
      expandedSource: """
        final class Light {
          func activate() {}
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.when("activate", transitionFrom: "off", to: "off")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' generates 'activate' for event 'activate', but 'Light' already declares it", line: 6,
          column: 13, severity: .error, notes: [NoteSpec(message: "'activate' declared here", line: 3, column: 3)])
      ])
  }

  @Test func stateClashingWithDeclaredPropertyIsAnErrorWithNote() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState("on")
        }
        var isOn: Bool { true }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.addState("on")
          }
          var isOn: Bool { true }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' generates 'isOn' for state 'on', but 'Light' already declares it", line: 5,
          column: 17, severity: .error, notes: [NoteSpec(message: "'isOn' declared here", line: 7, column: 3)])
      ])
  }

  /// Overloads with other argument labels, and static members, live next to generated members.
  @Test func overloadsAndStaticMembersDoNotClash() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        func activate(reason: String) {}
        static func activate() {}
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.when("activate", transitionFrom: "off", to: "off")
        }
      }
      """,
      expandedSource: """
        final class Light {
          func activate(reason: String) {}
          static func activate() {}
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.when("activate", transitionFrom: "off", to: "off")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [("activate", "activate")], states: [("off", "off")]))

        \(ExpectedMembers.event("activate", "activate", in: "Light"))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """)
  }

  @Test func declaredStatePropertyIsAnErrorWithFixItToRemoveIt() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        var state: String = "off"
        var brightness = 0
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
        }
      }
      """,
      expandedSource: """
        final class Light {
          var state: String = "off"
          var brightness = 0
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' generates 'state' for the current state, but 'Light' already declares it", line: 3,
          column: 3, severity: .error, fixIts: [FixItSpec(message: "remove 'state'; '@StateMachine' generates it")])
      ],
      applyFixIts: ["remove 'state'; '@StateMachine' generates it"],
      fixedSource: """
        @StateMachine
        final class Light {
          var brightness = 0
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
          }
        }
        """)
  }
}
