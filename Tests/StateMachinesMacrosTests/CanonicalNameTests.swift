import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Names that Swift's `String ==` calls equal (canonical equivalence: `"é"` precomposed, U+00E9,
/// and decomposed, `e` + U+0301) are one name in the macro, as in the runtime (Semantics
/// §Names): one declaration, one identifier check, no clash.
@Suite struct CanonicalNameTests {
  @Test func canonicallyEqualStatesAreOneDeclaration() {
    let definition = #"""
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.addState("état")
          sm.addState("e\u{301}tat")
          sm.when("go", transitionFrom: "off", to: "e\u{301}tat")
          sm.when("go", transitionFrom: "état", to: "off")
        }
      """#
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: """
        final class Light {
        \(definition)

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [("go", "go")], states: [("off", "off")]))

        \(ExpectedMembers.event("go", "go", in: "Light"))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        // Once, at the first declaration: the second spelling is the same state, and the
        // references in either spelling resolve to it.
        DiagnosticSpec(
          message:
            "state name 'état' cannot form a Swift identifier; use letters, digits, '_', '-' or spaces, starting with a letter",
          line: 5, column: 17, severity: .error)
      ])
  }

  @Test func canonicallyEqualEventsAreOneEvent() {
    let definition = #"""
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("off")
          sm.when("ève", transitionFrom: "off", to: "off")
          sm.when("e\u{300}ve", transitionFrom: "off", to: "off")
          sm.after("e\u{300}ve") { _ in }
        }
      """#
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: """
        final class Light {
        \(definition)

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [], states: [("off", "off")]))

        \(ExpectedMembers.state("off", "off", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message:
            "event name 'ève' cannot form a Swift identifier; use letters, digits, '_', '-' or spaces, starting with a letter",
          line: 5, column: 13, severity: .error)
      ])
  }

  @Test func lookAlikesAreTwoNames() {
    // Latin "a" and Cyrillic "а" (U+0430) are not canonically equal: the reference is undeclared.
    let definition = #"""
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("a")
          sm.when("go", transitionFrom: "a", to: "\u{430}")
        }
      """#
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: """
        final class Light {
        \(definition)

        \(ExpectedMembers.storage("Light"))

        \(ExpectedMembers.ids("Light", events: [("go", "go")], states: [("a", "a")]))

        \(ExpectedMembers.event("go", "go", in: "Light"))

        \(ExpectedMembers.state("a", "a", in: "Light"))
        }

        \(ExpectedMembers.conformance("Light"))
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'go' names undeclared state '\u{430}'", line: 5, column: 44, severity: .error,
          fixIts: [FixItSpec(message: "use 'a'")])
      ])
  }
}
