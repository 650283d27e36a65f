import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@StateMachine` on something other than a class: one error on the attribute, nothing generated.
@Suite struct DeclarationKindDiagnosticTests {
  @Test func structIsRejectedWithFixItToFinalClass() {
    assertExpansion(
      """
      @StateMachine
      struct Light {
        var on = false
      }
      """,
      expandedSource: """
        struct Light {
          var on = false
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' cannot be applied to struct type 'Light'", line: 1, column: 1, severity: .error,
          fixIts: [FixItSpec(message: "change 'struct' to 'final class'")])
      ],
      applyFixIts: ["change 'struct' to 'final class'"],
      fixedSource: """
        @StateMachine
        final class Light {
          var on = false
        }
        """)
  }

  @Test func enumIsRejected() {
    assertExpansion(
      """
      @StateMachine
      enum Light {
        case on, off
      }
      """,
      expandedSource: """
        enum Light {
          case on, off
        }
        """,
      diagnostics: [
        DiagnosticSpec(message: "'@StateMachine' cannot be applied to enum type 'Light'", line: 1, column: 1, severity: .error)
      ])
  }

  @Test func actorIsRejectedWithFixItToFinalClass() {
    assertExpansion(
      """
      @StateMachine
      actor Light {
        var on = false
      }
      """,
      expandedSource: """
        actor Light {
          var on = false
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' cannot be applied to actor type 'Light'", line: 1, column: 1, severity: .error,
          fixIts: [FixItSpec(message: "change 'actor' to 'final class'")])
      ],
      applyFixIts: ["change 'actor' to 'final class'"],
      fixedSource: """
        @StateMachine
        final class Light {
          var on = false
        }
        """)
  }

  @Test func protocolIsRejected() {
    assertExpansion(
      """
      @StateMachine
      protocol Switchable {
        var on: Bool { get }
      }
      """,
      expandedSource: """
        protocol Switchable {
          var on: Bool { get }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' cannot be applied to protocol type 'Switchable'", line: 1, column: 1, severity: .error)
      ])
  }

  @Test func extensionIsRejected() {
    assertExpansion(
      """
      @StateMachine
      extension Light {
        func blink() {}
      }
      """,
      expandedSource: """
        extension Light {
          func blink() {}
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@StateMachine' cannot be applied to extension of type 'Light'", line: 1, column: 1, severity: .error)
      ])
  }
}
