import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// State and event names that cannot become the generated members.
@Suite struct NameDiagnosticTests {
  @Test func emptyStateNameIsAnError() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState("")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.addState("")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(message: "empty name in addState", line: 5, column: 17, severity: .error)
      ])
  }

  @Test func emptyStateNameInTransitionIsAnError() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.when("reset", transitionFrom: "", to: "off")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.when("reset", transitionFrom: "", to: "off")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [("reset", "reset")], states: [("off", "off")]))

        \(ExpectedMembers.event("reset", "reset", in: "Light"))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(message: "empty name in transition 'reset'", line: 5, column: 38, severity: .error)
      ])
  }

  @Test func emptyEventNameIsAnError() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState("on")
          sm.when("", transitionFrom: "off", to: "on")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.addState("on")
            sm.when("", transitionFrom: "off", to: "on")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off"), ("on", "on")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))

        \(ExpectedMembers.state("on", "on", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(message: "empty name in 'when'", line: 6, column: 13, severity: .error)
      ])
  }

  @Test func namesThatCannotFormAnIdentifierAreErrors() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState("a.b")
          sm.when("1st", transitionFrom: "off", to: "a.b")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.addState("a.b")
            sm.when("1st", transitionFrom: "off", to: "a.b")
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
            "state name 'a.b' cannot form a Swift identifier; use letters, digits, '_', '-' or spaces, starting with a letter",
          line: 5, column: 17, severity: .error),
        DiagnosticSpec(
          message:
            "event name '1st' cannot form a Swift identifier; use letters, digits, '_', '-' or spaces, starting with a letter",
          line: 6, column: 13, severity: .error),
      ])
  }

  @Test func eventNamedLikeAKeywordIsAnError() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.when("default", transitionFrom: "off", to: "off")
        }
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("off")
            sm.when("default", transitionFrom: "off", to: "off")
          }

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "event 'default' would generate a member named 'default', which is a Swift keyword", line: 5,
          column: 13, severity: .error)
      ])
  }

  @Test func twoStatesFormingOneIdentifierAreAnErrorWithNote() {
    assertExpansion(
      """
      @StateMachine
      final class Task {
        static let stateMachine = StateMachineDefinition<Task> { sm in
          sm.addState("in_progress")
          sm.addState("inProgress")
        }
      }
      """,
      expandedSource: """
        final class Task {
          static let stateMachine = StateMachineDefinition<Task> { sm in
            sm.addState("in_progress")
            sm.addState("inProgress")
          }

        \(ExpectedMembers.storage("Task"))

        \(ExpectedMembers.ids("Task", events: [], states: [("in_progress", "inProgress")]))

        \(ExpectedMembers.state("in_progress", "inProgress", in: "Task"))
        }

        \(ExpectedMembers.conformance("Task"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "state 'inProgress' and state 'in_progress' both generate 'isInProgress'", line: 5, column: 17,
          severity: .error, notes: [NoteSpec(message: "state 'in_progress' declared here", line: 4, column: 17)])
      ])
  }

  /// An event generates three members; a clash is still one error, and the name generates none.
  @Test func twoEventsFormingOneIdentifierAreReportedOnce() {
    assertExpansion(
      """
      @StateMachine
      final class Task {
        static let stateMachine = StateMachineDefinition<Task> { sm in
          sm.addState("open")
          sm.when("go_on", transitionFrom: "open", to: "open")
          sm.when("goOn", transitionFrom: "open", to: "open")
        }
      }
      """,
      expandedSource: """
        final class Task {
          static let stateMachine = StateMachineDefinition<Task> { sm in
            sm.addState("open")
            sm.when("go_on", transitionFrom: "open", to: "open")
            sm.when("goOn", transitionFrom: "open", to: "open")
          }

        \(ExpectedMembers.storage("Task"))

        \(ExpectedMembers.ids("Task", events: [("go_on", "goOn")], states: [("open", "open")]))

        \(ExpectedMembers.event("go_on", "goOn", in: "Task"))

        \(ExpectedMembers.state("open", "open", in: "Task"))
        }

        \(ExpectedMembers.conformance("Task"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "event 'goOn' and event 'go_on' both generate 'goOn'", line: 6, column: 13, severity: .error,
          notes: [NoteSpec(message: "event 'go_on' declared here", line: 5, column: 13)])
      ])
  }

  @Test func eventAndStateFormingOneMemberAreAnError() {
    assertExpansion(
      """
      @StateMachine
      final class Task {
        static let stateMachine = StateMachineDefinition<Task> { sm in
          sm.addState("done")
          sm.when("isDone", transitionFrom: "done", to: "done")
        }
      }
      """,
      expandedSource: """
        final class Task {
          static let stateMachine = StateMachineDefinition<Task> { sm in
            sm.addState("done")
            sm.when("isDone", transitionFrom: "done", to: "done")
          }

        \(ExpectedMembers.storage("Task"))

        \(ExpectedMembers.ids("Task", events: [], states: [("done", "done")]))

        \(ExpectedMembers.state("done", "done", in: "Task"))
        }

        \(ExpectedMembers.conformance("Task"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "event 'isDone' and state 'done' both generate 'isDone'", line: 5, column: 13, severity: .error,
          notes: [NoteSpec(message: "state 'done' declared here", line: 4, column: 17)])
      ])
  }
}
