import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macro on hierarchical definitions (Hierarchy §5, the macro's checks): scoped builders, N4/N5
/// resolution of every literal, `is…` members for nested states, and one diagnostic per check.
@Suite struct HierarchyDiagnosticTests {
  /// The expansion of class `Player` after `definition`, with these events and states as
  /// (name, identifier) pairs.
  private func expansion(_ definition: String, events: [(String, String)], states: [(String, String)]) -> String {
    var parts = [
      "final class Player {\n\(definition)", ExpectedMembers.storage("Player"),
      ExpectedMembers.ids("Player", events: events, states: states),
    ]
    parts += events.map { ExpectedMembers.event($0.0, $0.1, in: "Player") }
    parts += states.map { ExpectedMembers.state($0.0, $0.1, in: "Player") }
    return parts.joined(separator: "\n\n") + "\n}\n\n" + ExpectedMembers.conformance("Player")
  }

  @Test func nestedStatesGetMembersByBareNameOrPath() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("player") { p in
            p.addState("idle")
            p.addHistory("resume", .deep)
          }
          sm.addState("recorder") { $0.addState("idle"); $0.addState("taping") }
          sm.addParallelState("deck", regions: [["left"], ["right"]])
          sm.when("tape", transitionFrom: "player", to: "taping")
          sm.whenDone("recorder", transitionTo: "player/resume")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(
        definition, events: [("tape", "tape")],
        states: [
          ("player", "player"), ("player/idle", "playerIdle"), ("recorder", "recorder"), ("recorder/idle", "recorderIdle"),
          ("recorder/taping", "taping"), ("deck", "deck"), ("deck@0/left", "left"), ("deck@1/right", "right"),
        ]))
  }

  @Test func undeclaredNameInAScopeIsAnError() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("on") { on in
            on.addState("stopped")
            on.when("play", transitionFrom: "stopped", to: "playng")
          }
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(definition, events: [("play", "play")], states: [("on", "on"), ("on/stopped", "stopped")]),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'play' names undeclared state 'playng'", line: 6, column: 54, severity: .error,
          fixIts: [FixItSpec(message: "add state 'playng'")])
      ],
      applyFixIts: ["add state 'playng'"],
      fixedSource: """
        @StateMachine
        final class Player {
          static let stateMachine = StateMachineDefinition<Player> { sm in
            sm.addState("playng")
            sm.addState("on") { on in
              on.addState("stopped")
              on.when("play", transitionFrom: "stopped", to: "playng")
            }
          }
        }
        """)
    // The fixed source expands without a diagnostic: the bare name now resolves to the new state.
    let fixed = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("playng")
          sm.addState("on") { on in
            on.addState("stopped")
            on.when("play", transitionFrom: "stopped", to: "playng")
          }
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(fixed)\n}",
      expandedSource: expansion(
        fixed, events: [("play", "play")], states: [("playng", "playng"), ("on", "on"), ("on/stopped", "stopped")]))
  }

  @Test func ambiguousBareNameIsAnErrorWithANoteAtEachCandidate() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("off")
          sm.addState("player") { $0.addState("idle") }
          sm.addState("recorder") { $0.addState("idle") }
          sm.when("go", transitionFrom: "off", to: "idle")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(
        definition, events: [("go", "go")],
        states: [
          ("off", "off"), ("player", "player"), ("player/idle", "playerIdle"), ("recorder", "recorder"),
          ("recorder/idle", "recorderIdle"),
        ]),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'go' names ambiguous state 'idle': 'player/idle' or 'recorder/idle'", line: 7,
          column: 46, severity: .error,
          notes: [
            NoteSpec(message: "'player/idle' declared here", line: 5, column: 41),
            NoteSpec(message: "'recorder/idle' declared here", line: 6, column: 43),
          ],
          fixIts: [FixItSpec(message: "use 'player/idle'"), FixItSpec(message: "use 'recorder/idle'")])
      ],
      applyFixIts: ["use 'player/idle'"],
      fixedSource: """
        @StateMachine
        final class Player {
          static let stateMachine = StateMachineDefinition<Player> { sm in
            sm.addState("off")
            sm.addState("player") { $0.addState("idle") }
            sm.addState("recorder") { $0.addState("idle") }
            sm.when("go", transitionFrom: "off", to: "player/idle")
          }
        }
        """)
    // The fixed source expands without a diagnostic.
    let fixed = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("off")
          sm.addState("player") { $0.addState("idle") }
          sm.addState("recorder") { $0.addState("idle") }
          sm.when("go", transitionFrom: "off", to: "player/idle")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(fixed)\n}",
      expandedSource: expansion(
        fixed, events: [("go", "go")],
        states: [
          ("off", "off"), ("player", "player"), ("player/idle", "playerIdle"), ("recorder", "recorder"),
          ("recorder/idle", "recorderIdle"),
        ]))
  }

  @Test func regionIndexOutOfRangeIsAnError() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("a")
          sm.addParallelState("c2", regions: [["c211"], ["c221"]])
          sm.when("go", transitionFrom: "a", to: "c2@5/c221")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(
        definition, events: [("go", "go")],
        states: [("a", "a"), ("c2", "c2"), ("c2@0/c211", "c211"), ("c2@1/c221", "c221")]),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'go' names invalid path 'c2@5/c221': 'c2' has 2 regions, no region 5", line: 6,
          column: 44, severity: .error)
      ])
  }

  @Test func malformedPathIsAnError() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("a")
          sm.addParallelState("c2", regions: [["c211"], ["c221"]])
          sm.when("go", transitionFrom: "a", to: "c2/c221")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(
        definition, events: [("go", "go")],
        states: [("a", "a"), ("c2", "c2"), ("c2@0/c211", "c211"), ("c2@1/c221", "c221")]),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'go' names invalid path 'c2/c221': 'c2' has no child 'c221'", line: 6, column: 44,
          severity: .error)
      ])
  }

  @Test func pseudostateAsSourceIsAnError() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("on") { on in
            on.addState("stopped")
            on.addHistory("resume")
          }
          sm.when("go", transitionFrom: "resume", to: "on")
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(definition, events: [("go", "go")], states: [("on", "on"), ("on/stopped", "stopped")]),
      diagnostics: [
        DiagnosticSpec(
          message: "transition 'go' leaves pseudostate 'on/resume'; only states are sources", line: 8, column: 35,
          severity: .error)
      ])
  }

  @Test func forkTargetsInOneRegionAreAnError() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("a")
          sm.addParallelState("p", regions: [["x", "y"], ["z"]])
          sm.when("split", transitionFrom: "a", to: ["x", "y"])
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(
        definition, events: [("split", "split")],
        states: [("a", "a"), ("p", "p"), ("p@0/x", "x"), ("p@0/y", "y"), ("p@1/z", "z")]),
      diagnostics: [
        DiagnosticSpec(
          message:
            "transition 'split' targets 'p@0/x' and 'p@0/y', which are not in distinct regions of one parallel state",
          line: 6, column: 53, severity: .error)
      ])
  }

  @Test func localBetweenUnrelatedStatesIsAWarning() {
    let definition = """
        static let stateMachine = StateMachineDefinition<Player> { sm in
          sm.addState("a")
          sm.addState("b")
          sm.when("go", transitionFrom: "a", to: "b", kind: .local)
        }
      """
    assertExpansion(
      "@StateMachine\nfinal class Player {\n\(definition)\n}",
      expandedSource: expansion(definition, events: [("go", "go")], states: [("a", "a"), ("b", "b")]),
      diagnostics: [
        DiagnosticSpec(
          message: "a local transition from 'a' to 'b' behaves as external: neither state contains the other", line: 6,
          column: 44, severity: .warning)
      ])
  }
}
