import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Transitions and callbacks that name states or events the definition does not declare.
@Suite struct ReferenceDiagnosticTests {
  /// The expansion of `Light` with states idle and active and event start, after `definition`.
  private func lightExpansion(_ definition: String) -> String {
    """
    final class Light {
    \(definition)

    \(ExpectedMembers.storage("Light"))

    \(ExpectedMembers.ids("Light", events: [("start", "start")], states: [("idle", "idle"), ("active", "active")]))

    \(ExpectedMembers.event("start", "start", in: "Light"))

    \(ExpectedMembers.state("idle", "idle", in: "Light"))

    \(ExpectedMembers.state("active", "active", in: "Light"))
    }

    \(ExpectedMembers.conformance("Light"))
    """
  }

  @Test func misspelledStateInTransitionOffersTheDeclaredName() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("idle")
          sm.addState("active")
          sm.when("start", transitionFrom: "idle", to: "actve")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: lightExpansion(definition),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'start' names undeclared state 'actve'", line: 6, column: 50, severity: .error,
          fixIts: [FixItSpec(message: "use 'active'")])
      ],
      applyFixIts: ["use 'active'"],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("idle")
            sm.addState("active")
            sm.when("start", transitionFrom: "idle", to: "active")
          }
        }
        """)
  }

  @Test func unrelatedStateInTransitionOffersToAddIt() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("idle")
          sm.addState("active")
          sm.when("start", transitionFrom: ["idle", "paused"], to: "active")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: lightExpansion(definition),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'start' names undeclared state 'paused'", line: 6, column: 47, severity: .error,
          fixIts: [FixItSpec(message: "add state 'paused'")])
      ],
      applyFixIts: ["add state 'paused'"],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("paused")
            sm.addState("idle")
            sm.addState("active")
            sm.when("start", transitionFrom: ["idle", "paused"], to: "active")
          }
        }
        """)
  }

  @Test func fixItsForSeveralUndeclaredStatesApplyTogether() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("idle")
          sm.addState("active")
          sm.when("start", transitionFrom: ["idel", "paused"], to: "active")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: lightExpansion(definition),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'start' names undeclared state 'idel'", line: 6, column: 39, severity: .error,
          fixIts: [FixItSpec(message: "use 'idle'")]),
        DiagnosticSpec(
          message: "transition 'start' names undeclared state 'paused'", line: 6, column: 47, severity: .error,
          fixIts: [FixItSpec(message: "add state 'paused'")]),
      ],
      applyFixIts: ["use 'idle'", "add state 'paused'"],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("paused")
            sm.addState("idle")
            sm.addState("active")
            sm.when("start", transitionFrom: ["idle", "paused"], to: "active")
          }
        }
        """)
  }

  @Test func undeclaredStateInEntryActionIsAnError() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("idle")
          sm.addState("active")
          sm.when("start", transitionFrom: "idle", to: "active")
          sm.onEntry("activ") { _ in }
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: lightExpansion(definition),
      diagnostics: [
        DiagnosticSpec(
          message: "'onEntry' names undeclared state 'activ'", line: 7, column: 16, severity: .error,
          fixIts: [FixItSpec(message: "use 'active'")])
      ])
  }

  @Test func misspelledEventInCallbackOffersTheDeclaredName() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("idle")
          sm.addState("active")
          sm.when("start", transitionFrom: "idle", to: "active")
          sm.before("strat") { _ in }
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: lightExpansion(definition),
      diagnostics: [
        DiagnosticSpec(
          message: "'before' names undeclared event 'strat'", line: 7, column: 15, severity: .error,
          fixIts: [FixItSpec(message: "use 'start'")])
      ],
      applyFixIts: ["use 'start'"],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in
            sm.addState("idle")
            sm.addState("active")
            sm.when("start", transitionFrom: "idle", to: "active")
            sm.before("start") { _ in }
          }
        }
        """)
  }

  @Test func unrelatedEventInCallbackHasNoFixIt() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Light> { sm in
          sm.addState("idle")
          sm.addState("active")
          sm.when("start", transitionFrom: "idle", to: "active")
          sm.after("explode") { _ in }
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Light {\n\(definition)\n}",
      expandedSource: lightExpansion(definition),
      diagnostics: [
        DiagnosticSpec(message: "'after' names undeclared event 'explode'", line: 7, column: 14, severity: .error)
      ])
  }
}
