import Foundation
import Testing

@testable import StateMachines

/// Definition errors of invokes (Invoke I1; invokes of store-managed classes are refused).
@Suite(.timeLimit(.minutes(2)))
struct InvokeDefinitionTests {
  private func definitionError(
    _ build: (StateMachineBuilder<DynamicStateMachine>) -> Void
  ) -> String? {
    StateMachineDefinition<DynamicStateMachine>(build).definitionError.map { "\($0)" }
  }

  private func base(_ sm: StateMachineBuilder<DynamicStateMachine>) {
    sm.addState("idle")
    sm.addState("loading")
    sm.addFinalState("gone")
    sm.when("load", transitionFrom: "idle", to: "loading")
    sm.when("leave", transitionFrom: "loading", to: "gone")
  }

  @Test("I1: an invoke names a declared state")
  func undeclaredState() {
    let error = definitionError { sm in
      base(sm)
      sm.invoke("fetch", in: "nowhere") { _ in 1 }
    }
    #expect(error?.contains("nowhere") == true)
  }

  @Test("I1: ids are unique, valid names, and not on a final state")
  func idsAndFinalStates() {
    #expect(
      definitionError { sm in
        base(sm)
        sm.invoke("fetch", in: "loading") { _ in 1 }
        sm.invoke("fetch", in: "idle") { _ in 2 }
      }?.contains("invoke('fetch') is declared twice") == true)
    #expect(
      definitionError { sm in
        base(sm)
        sm.invoke("a/b", in: "loading") { _ in 1 }
      }?.contains("invoke('a/b')") == true)
    #expect(
      definitionError { sm in
        base(sm)
        sm.invoke("fetch", in: "gone") { _ in 1 }
      }?.contains("a final state cannot invoke") == true)
  }

  @Test("I1: whenInvokeDone names a declared invoke; the result events are reserved")
  func resultTransitions() {
    #expect(
      definitionError { sm in
        base(sm)
        sm.whenInvokeDone("fetch", transitionTo: "idle")
      }?.contains("no invoke 'fetch' is declared") == true)
    #expect(
      definitionError { sm in
        base(sm)
        sm.invoke("fetch", in: "loading") { _ in 1 }
        sm.when("done.invoke.fetch", transitionFrom: "loading", to: "idle")
      }?.contains("reserved for whenInvokeDone") == true)
    // Declared through whenInvokeDone, in any order: valid.
    #expect(
      definitionError { sm in
        sm.whenInvokeDone("fetch", transitionTo: "idle")
        base(sm)
        sm.invoke("fetch", in: "loading") { _ in 1 }
      } == nil)
  }

  @Test("A store-managed class cannot invoke yet: a definition error says so")
  func storeManagedRefused() {
    let definition = StateMachineDefinition<StoreOrder> { sm in
      sm.addState("cart")
      sm.addState("paying")
      sm.when("pay", transitionFrom: "cart", to: "paying")
      sm.invoke("charge", in: "paying") { _ in 1 }
    }
    #expect("\(String(describing: definition.definitionError))".contains("store-managed"))
  }
}
