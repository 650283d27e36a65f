import Foundation
import Testing

@testable import StateMachines

/// Definition errors of invokes (INVOKE.md I1, the store rule) and a multi-threaded stress of a
/// locked model (A.6 10).
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

  @Test("A.6 10: 4 threads × 25,000 load/cancel cycles on a locked model leave nothing running")
  func loadCancelStress() async {
    let machine = DynamicStateMachine(
      StateMachineDefinition { sm in
        sm.addState("idle")
        sm.addState("loading")
        sm.addState("ready")
        sm.when("load", transitionFrom: "idle", to: "loading")
        sm.when("cancel", transitionFrom: "loading", to: "idle")
        sm.invoke("wait", in: "loading") { _ in
          try await Task.sleep(for: .seconds(3600))
        }
        sm.whenInvokeDone("wait", transitionTo: "ready")
      })
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<25_000 {
            machine.fire("load")
            machine.fire("cancel")
          }
        }
      }
    }
    machine.fire("cancel")
    await machine.waitForInvocations()
    let statistics = machine.invocationStatistics
    #expect(machine.state == "idle")
    #expect(machine.activeInvocations.isEmpty)
    #expect(statistics.started > 0)
    #expect(statistics.finished == statistics.started)
    // Every work was cancelled: its (error) result dropped, none offered to the machine.
    #expect(statistics.delivered == 0)
    #expect(statistics.dropped == statistics.started)
  }
}
