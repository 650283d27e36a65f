// The generated store methods of a store-managed class (`try await order.pay()`), on every store:
// one store step on the object's row with a compare-and-set on the version the object holds
// (Persistence P1–P5), the object holding the committed row afterwards, and the typed names of
// calls by id and scopes (`orders.fire(.pay, on: id)`, `orders.ids(in: .paid)`).

import Foundation
import StateMachines
import Testing

extension StoreConformance {
  /// The version the object holds (its store version).
  func version(_ order: StoreOrder) -> Int64 { StoreOrder.stateMachine.storedState(of: order).version }

  /// The committed machine columns of the row, as a fresh load sees them.
  func row(_ orders: any StateMachineStore<StoreOrder>, _ id: Int) async throws -> StoredMachineState? {
    try await orders.load(id).map { StoreOrder.stateMachine.storedState(of: $0) }
  }

  /// P1–P5 through a generated method: `true` and one committed step, `after` once; a refusal is
  /// `false` and writes nothing; the object answers `isPaid`, `canShip`, `state` for the row.
  func generatedMethodsFireThroughTheStore() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    let order = StoreOrder(id: id)
    try await orders.insert(order)
    #expect(order.isAwaitingPayment && version(order) == 0)
    #expect(try await order.pay())
    #expect(order.isPaid && order.state == "paid" && order.canShip && !order.canPay && version(order) == 1)
    #expect(StoreMarks.shared.of(id).sorted() == ["after pay", "observed awaitingPayment->paid"])
    #expect(try await row(orders, id)?.version == 1)
    // A refusal: false, nothing written, the object unchanged.
    #expect(try await order.pay() == false)
    #expect(try await orders.history(of: id).count == 1)
    #expect(order.isPaid && version(order) == 1)
    // The payload form records its payload (P2).
    #expect(try await order.ship(with: "courier"))
    let last = try #require(try await orders.history(of: id).last)
    #expect(last.to == "shipped" && last.payload.map { String(decoding: $0, as: UTF8.self) } == "\"courier\"")
    #expect(order.isShipped && version(order) == 2)
  }

  /// P4: two objects loaded at the same version race; the second throws `.conflict`, writes
  /// nothing and then holds the winner's state and version, from which it fires next.
  func generatedMethodLostRace() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let first = try #require(try await orders.load(id))
    let second = try #require(try await orders.load(id))
    #expect(try await first.pay())
    let error = await storeError { try await second.cancel() }
    guard case .conflict(_, let expected, let current, let state) = error else {
      Issue.record("expected a conflict, got \(String(describing: error))")
      return
    }
    #expect(expected == 0 && current == 1 && state == "paid")
    #expect(second.isPaid && second.canShip && version(second) == 1)
    #expect(try await orders.history(of: id).map(\.to) == ["paid"])
    // Not retried: the caller decides, and the object now fires at the row's version.
    #expect(try await second.ship())
    #expect(try await orders.history(of: id).map(\.to) == ["paid", "shipped"])
  }

  /// P3, P4 from two tasks: two objects at the same version fire at once; exactly one commits,
  /// the other throws `.conflict` and then holds the winner's state.
  func generatedMethodsRaceFromTwoTasks() async throws {
    let orders = try await store(StoreOrder.self)
    for _ in 0..<10 {
      let id = StoreTestIDs.next()
      try await orders.insert(StoreOrder(id: id))
      let payer = try #require(try await orders.load(id))
      let canceller = try #require(try await orders.load(id))
      async let paid = storeError { try await payer.pay() }
      async let cancelled = storeError { try await canceller.cancel() }
      let outcomes = await [paid, cancelled]
      let conflicts = outcomes.filter { if case .conflict = $0 { true } else { false } }
      #expect(conflicts.count == 1 && outcomes.filter { $0 == nil }.count == 1, "outcomes: \(outcomes)")
      let stored = try #require(try await row(orders, id))
      #expect(stored.version == 1)
      #expect(payer.state == stored.state && canceller.state == stored.state)
      #expect(version(payer) == 1 && version(canceller) == 1)
      #expect(try await orders.history(of: id).count == 1)
    }
  }

  /// Binding: an object no store bound throws `.notBound` and writes nothing; `load` and
  /// `Fired.model` are bound; a failed callback throws, rolls back and leaves the object as it
  /// was; by name, `fireInStore` fires and the synchronous `fire` keeps its refusal (P13).
  func generatedMethodsBindingAndFailures() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    let unbound = StoreOrder(id: id)
    guard case .notBound(let type, let event) = await storeError({ try await unbound.pay() }) else {
      Issue.record("expected notBound")
      return
    }
    #expect(type == "StoreOrder" && event == "pay")
    #expect(try await orders.load(id) == nil)
    try await orders.insert(StoreOrder(id: id))
    // Typed names by id; the object a fire returns is bound.
    let fired = try await orders.fire(.pay, on: id)
    #expect(fired.to == "paid")
    // P5: the entry action of `broken` throws: the step is rolled back, the object unchanged.
    let failure = await storeError { try await fired.model.smash() }
    guard case .callbackFailed(let failedEvent, _) = failure else {
      Issue.record("expected callbackFailed, got \(String(describing: failure))")
      return
    }
    #expect(failedEvent == "smash")
    #expect(fired.model.isPaid && version(fired.model) == 1)
    #expect(try await row(orders, id)?.state == "paid")
    // By name: the synchronous form refuses (P13), the async one fires; an unknown name is false.
    let loaded = try #require(try await orders.load(id))
    #expect(loaded.fire("ship") == false)
    #expect(try await loaded.fireInStore("nosuchevent") == false)
    #expect(try await loaded.fireInStore("ship"))
    #expect(loaded.isShipped && version(loaded) == 2)
    // Scopes by typed names.
    #expect(try await orders.ids(in: .shipped).contains(id))
    #expect(try await orders.count(in: .shipped) >= 1)
    #expect(try await orders.ids(in: .awaitingPayment).contains(id) == false)
  }

  /// Persistence §7: the scheduler's backlog: nothing parked, and the age of the oldest due
  /// deadline on the store's clock, `nil` once it fired.
  func schedulerBacklogAgesTheOldestDueDeadline() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let before = try await orders.schedulerBacklog()
    #expect(before.parkedDeadlines == 0 && before.parkedMessages == 0)
    clock.advance(by: .seconds(3600 + 30))
    let due = try await orders.schedulerBacklog()
    #expect(due.oldestDueDeadlineAge.map { $0 >= .seconds(30) } == true, "\(due)")
    while try await orders.fireDueTimeouts(limit: 100) > 0 {}
    #expect(try await orders.load(id)?.state == "cancelled")
    #expect(try await orders.schedulerBacklog().oldestDueDeadlineAge == nil)
  }

  /// Persistence §6 with P4 by id: a generated method on a step that runs no code (the SQL stores'
  /// fast path) compares the row's version with the object's; a stale object gets the conflict and
  /// then fires from the winner's row; `FireOptions.expectedVersion` by id does the same.
  func generatedMethodOnTheFastPath() async throws {
    let switches = try await store(StoreSwitch.self)
    let id = StoreTestIDs.next()
    try await switches.insert(StoreSwitch(id: id))
    let first = try #require(try await switches.load(id))
    let second = try #require(try await switches.load(id))
    #expect(try await first.flip())
    #expect(first.isOn && StoreSwitch.stateMachine.storedState(of: first).version == 1)
    // `flip` is taken from `on` too: only the version tells that `second` is stale.
    guard case .conflict(_, 0, 1, "on") = await storeError({ try await second.flip() }) else {
      Issue.record("expected a conflict at version 1 in 'on'")
      return
    }
    #expect(second.isOn && StoreSwitch.stateMachine.storedState(of: second).version == 1)
    #expect(try await second.flip())
    #expect(second.isOff && StoreSwitch.stateMachine.storedState(of: second).version == 2)
    guard case .conflict = await storeError({ try await switches.fire(.flip, on: id, options: FireOptions(expectedVersion: 0)) })
    else {
      Issue.record("expected a conflict by id at a stale version")
      return
    }
    let fired = try await switches.fire(.flip, on: id, options: FireOptions(expectedVersion: 2))
    #expect(fired.to == "on" && fired.version == 3)
    #expect(try await switches.history(of: id).map(\.to) == ["on", "off", "on"])
  }
}
