// Does not compile: a typed name the class does not declare is a compile error, not a refusal
// found in production. Checked by .ci/check-compile.
// expect-error: reference to member 'pya' cannot be resolved
import StateMachines

@StateMachine
final class Order: Codable, StoreManagedStateMachine {
  let id: Int
  var storeID: Int { id }
  init(id: Int) { self.id = id }
  static let stateMachine = StateMachineDefinition<Order> { sm in
    sm.addState("awaitingPayment")
    sm.addState("paid")
    sm.when("pay", transitionFrom: "awaitingPayment", to: "paid")
  }
}

func business(_ orders: InMemoryStateMachineStore<Order>) async throws {
  try await orders.fire(.pya, on: 42)
}
