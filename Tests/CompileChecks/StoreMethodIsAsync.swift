// Compiles: a store-managed class's generated event method is `async throws`, called with
// `try await`; `canPay`, `isPaid` and `state` stay synchronous; typed names address rows by id.
// The model is not `Sendable` (it has `var` properties, and no `@unchecked Sendable`): objects
// are handed to the store and back from nonisolated code and from the main actor alike.
// Checked by .ci/check-compile (expect: compiles).
import StateMachines

@StateMachine
final class Order: Codable, StoreManagedStateMachine {
  var id: Int
  var item = "book"
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

@MainActor func screen(_ orders: InMemoryStateMachineStore<Order>) async throws {
  let order = Order(id: 7)
  try await orders.insert(order)
  order.item = "lamp"
  if try await order.pay() { print(order.isPaid, order.item) }
  guard let loaded = try await orders.load(7) else { return }
  try await loaded.fireInStore("pay")
  let fired = try await orders.fire(.pay, on: 7)
  fired.model.item = "chair"
}
