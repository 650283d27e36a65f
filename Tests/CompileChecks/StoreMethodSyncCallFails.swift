// Does not compile: a store-managed class has no synchronous `pay() -> Bool` to call by mistake;
// its generated method is `async throws` (Persistence P13). Checked by .ci/check-compile.
// expect-error: 'async' call in a function that does not support concurrency
// expect-error: call can throw, but it is not marked with 'try'
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

func business(_ order: Order) -> Bool {
  order.pay()
}
