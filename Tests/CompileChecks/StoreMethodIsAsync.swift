// Compiles: a store-managed class's generated event method is `async throws`, called with
// `try await`; `canPay`, `isPaid` and `state` stay synchronous; typed names address rows by id.
// Checked by .ci/check-compile (expect: compiles).
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

func business(_ order: Order, _ orders: InMemoryStateMachineStore<Order>) async throws {
  if order.canPay && !order.isPaid && order.state == "awaitingPayment" {
    let committed: Bool = try await order.pay()
    _ = committed
  }
  try await orders.fire(.pay, on: 42)
  _ = try await orders.ids(in: .paid)
}
