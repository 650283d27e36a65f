import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// A definition is a stored `static let` with an initializer: any other shape is an error on the
/// property, with a fix-it that makes it one, and no members are generated (the generated members
/// keep a pointer to the definition they read first).
@Suite struct DefinitionShapeDiagnosticTests {
  private static func message(_ problem: String) -> String {
    "state machine definition 'stateMachine' must be a stored 'static let' with an initializer, not \(problem): the generated members keep the definition they read first"
  }

  private static let fixIt = "make 'stateMachine' a stored 'static let'"

  @Test func computedPropertyBecomesStoredLetInitializedWithItsBody() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static var stateMachine: StateMachineDefinition<Light> {
          StateMachineDefinition { sm in sm.addState("off") }
        }
      }
      """,
      expandedSource: """
        final class Light {
          static var stateMachine: StateMachineDefinition<Light> {
            StateMachineDefinition { sm in sm.addState("off") }
          }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: Self.message("a computed property"), line: 3, column: 3, severity: .error,
          fixIts: [FixItSpec(message: Self.fixIt)])
      ],
      applyFixIts: [Self.fixIt],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine: StateMachineDefinition<Light> = StateMachineDefinition { sm in sm.addState("off") }
        }
        """)
  }

  @Test func computedPropertyWithReturnAndGetBlockBecomesStoredLet() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static var stateMachine: StateMachineDefinition<Light> {
          get { return StateMachineDefinition { sm in sm.addState("off") } }
        }
      }
      """,
      expandedSource: """
        final class Light {
          static var stateMachine: StateMachineDefinition<Light> {
            get { return StateMachineDefinition { sm in sm.addState("off") } }
          }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: Self.message("a computed property"), line: 3, column: 3, severity: .error,
          fixIts: [FixItSpec(message: Self.fixIt)])
      ],
      applyFixIts: [Self.fixIt],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine: StateMachineDefinition<Light> = StateMachineDefinition { sm in sm.addState("off") }
        }
        """)
  }

  @Test func staticVarWithInitializerBecomesLet() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static var stateMachine = StateMachineDefinition<Light> { sm in sm.addState("off") }
      }
      """,
      expandedSource: """
        final class Light {
          static var stateMachine = StateMachineDefinition<Light> { sm in sm.addState("off") }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: Self.message("a 'var'"), line: 3, column: 3, severity: .error,
          fixIts: [FixItSpec(message: Self.fixIt)])
      ],
      applyFixIts: [Self.fixIt],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in sm.addState("off") }
        }
        """)
  }

  @Test func classVarBecomesStaticLet() {
    assertExpansion(
      """
      @StateMachine
      class Light {
        class var stateMachine: StateMachineDefinition<Light> { StateMachineDefinition { sm in sm.addState("off") } }
      }
      """,
      expandedSource: """
        class Light {
          class var stateMachine: StateMachineDefinition<Light> { StateMachineDefinition { sm in sm.addState("off") } }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: Self.message("a computed property"), line: 3, column: 3, severity: .error,
          fixIts: [FixItSpec(message: Self.fixIt)])
      ],
      applyFixIts: [Self.fixIt],
      fixedSource: """
        @StateMachine
        class Light {
          static let stateMachine: StateMachineDefinition<Light> = StateMachineDefinition { sm in sm.addState("off") }
        }
        """)
  }

  @Test func lazyStaticVarBecomesStaticLet() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        lazy static var stateMachine = StateMachineDefinition<Light> { sm in sm.addState("off") }
      }
      """,
      expandedSource: """
        final class Light {
          lazy static var stateMachine = StateMachineDefinition<Light> { sm in sm.addState("off") }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: Self.message("'lazy'"), line: 3, column: 3, severity: .error,
          fixIts: [FixItSpec(message: Self.fixIt)])
      ],
      applyFixIts: [Self.fixIt],
      fixedSource: """
        @StateMachine
        final class Light {
          static let stateMachine = StateMachineDefinition<Light> { sm in sm.addState("off") }
        }
        """)
  }

  @Test func staticLetWithoutInitializerIsAnErrorWithoutFixIt() {
    assertExpansion(
      """
      @StateMachine
      final class Light {
        static let stateMachine: StateMachineDefinition<Light>
      }
      """,
      expandedSource: """
        final class Light {
          static let stateMachine: StateMachineDefinition<Light>
        }
        """,
      diagnostics: [
        DiagnosticSpec(message: Self.message("declared without an initializer"), line: 3, column: 3, severity: .error)
      ])
  }

  @Test func storedStaticLetGeneratesMembersWithoutThisError() {
    let diagnostics = expansionDiagnostics(
      """
      @StateMachine
      final class Light {
        static let stateMachine = StateMachineDefinition<Light> { sm in sm.addState("off") }
      }
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
  }
}
