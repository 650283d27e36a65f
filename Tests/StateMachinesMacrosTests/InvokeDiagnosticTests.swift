import SwiftDiagnostics
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macro's checks of invokes (Invoke I1, I11): each invalid invoke is a compile-time error
/// with the runtime's wording, and a valid one compiles without a diagnostic.
@Suite struct InvokeDiagnosticTests {
  private func messages(_ body: String, attributes: String = "@MainActor\n") -> [String] {
    let source = """
      \(attributes)@StateMachine
      final class Loader {
        static let stateMachine = StateMachineDefinition<Loader> { sm in
          sm.addState("idle")
          sm.addState("loading")
          sm.addFinalState("gone")
          sm.addHistory("back")
          sm.when("load", transitionFrom: "idle", to: "loading")
          sm.when("leave", transitionFrom: "loading", to: "gone")
      \(body)
        }
      }
      """
    return expansionDiagnostics(source).map(\.message)
  }

  @Test func aValidInvokeCompiles() {
    #expect(
      messages("""
            sm.invoke("fetch", in: "loading") { _ in 1 }
            sm.whenInvokeDone("fetch", transitionTo: "idle")
            sm.whenInvokeFailed("fetch", transitionTo: "idle")
        """) == [])
  }

  @Test func anUndeclaredStateIsAnError() {
    #expect(
      messages("""
            sm.invoke("fetch", in: "loadin") { _ in 1 }
        """) == ["invoke('fetch') names undeclared state 'loadin'"])
  }

  @Test func aDuplicateIdIsAnError() {
    #expect(
      messages("""
            sm.invoke("fetch", in: "loading") { _ in 1 }
            sm.invoke("fetch", in: "idle") { _ in 2 }
        """) == ["invoke('fetch') is declared twice"])
  }

  @Test func anInvalidIdIsAnError() {
    #expect(
      messages("""
            sm.invoke("a/b", in: "loading") { _ in 1 }
        """).count == 1)
  }

  @Test func aFinalStateOrPseudostateCannotInvoke() {
    #expect(
      messages("""
            sm.invoke("fetch", in: "gone") { _ in 1 }
            sm.invoke("again", in: "back") { _ in 1 }
        """) == [
          "invoke('fetch') in 'gone': a final state cannot invoke",
          "invoke('again') in 'back': a pseudostate cannot invoke",
        ])
  }

  @Test func aResultTransitionNamesADeclaredInvoke() {
    let diagnostics = expansionDiagnostics(
      """
      @MainActor
      @StateMachine
      final class Loader {
        static let stateMachine = StateMachineDefinition<Loader> { sm in
          sm.addState("idle")
          sm.addState("loading")
          sm.invoke("fetch", in: "loading") { _ in 1 }
          sm.whenInvokeDone("fecth", transitionTo: "idle")
        }
      }
      """)
    #expect(diagnostics.map(\.message) == ["'whenInvokeDone' names 'fecth', but no invoke 'fecth' is declared"])
    #expect(diagnostics.first?.fixIts.map(\.message.message) == ["use 'fetch'"] || diagnostics.first?.fixIts.count == 1)
  }

  @Test func aResultEventDeclaredByHandIsAnError() {
    #expect(
      messages("""
            sm.invoke("fetch", in: "loading") { _ in 1 }
            sm.when("done.invoke.fetch", transitionFrom: "loading", to: "idle")
        """).contains("'done.invoke.fetch' is reserved for whenInvokeDone and whenInvokeFailed in a machine that invokes"))
  }

  @Test func aClassNeitherIsolatedNorSendableCannotInvoke() {
    let source = """
      @StateMachine
      final class Loader {
        static let stateMachine = StateMachineDefinition<Loader> { sm in
          sm.addState("idle")
          sm.addState("loading")
          sm.invoke("fetch", in: "loading") { _ in 1 }
        }
      }
      """
    let diagnostics = expansionDiagnostics(source)
    #expect(
      diagnostics.map(\.message) == [
        "'invoke' delivers its results from another task; 'Loader' must be isolated to a global actor (such as '@MainActor') or declare 'Sendable'"
      ])
    #expect(diagnostics.first?.fixIts.map(\.message.message) == ["isolate the class to '@MainActor'"])
    #expect(messages("    sm.invoke(\"fetch\", in: \"loading\") { _ in 1 }", attributes: "") .count == 1)
  }
}
