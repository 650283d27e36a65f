// The conformance suite, continued: durable deadlines (P8–P11, P15) and the outbox (P16).

import Foundation
import StateMachines
import Testing

extension StoreConformance {
  /// P8: entering a state with `after:` arms a deadline due at the store clock + delay; exiting
  /// deletes it; a self-transition re-arms it; an internal transition keeps it.
  func deadlinesFollowTheConfiguration() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let armed = try await orders.deadlines(of: id)
    #expect(armed.map(\.state) == ["awaitingPayment"] && armed.map(\.event) == ["expire"])
    #expect(armed.first?.dueAt == clock.now + 3600)
    clock.advance(by: .seconds(10))
    try await orders.fire("note", on: id)
    #expect(try await orders.deadlines(of: id) == armed)
    try await orders.fire("remind", on: id)
    let rearmed = try await orders.deadlines(of: id)
    #expect(rearmed.count == 1 && rearmed.first?.dueAt == clock.now + 3600 && rearmed.first?.id != armed.first?.id)
    try await orders.fire("pay", on: id)
    #expect(try await orders.deadlines(of: id).isEmpty)
    // Nested: a timeout of a state inside a compound state goes when an ancestor is exited.
    let players = try await store(StorePlayer.self)
    let player = StoreTestIDs.next()
    try await players.insert(StorePlayer(id: player))
    for event in ["power", "play", "seek"] { try await players.fire(event, on: player) }
    #expect(try await players.deadlines(of: player).map(\.state) == ["on/seeking"])
    try await players.fire("power", on: player)
    #expect(try await players.deadlines(of: player).isEmpty)
    #expect(try await players.verify().isClean)
  }

  /// P9, P10, P15: a deadline fires once it is due on the store's clock, once: the row moves,
  /// history records `cause = timeout` with its `due_at`, the `after` callback runs; the next pass
  /// finds nothing. A deadline not yet due keeps its `due_at`.
  func dueDeadlineFiresOnce() async throws {
    let orders = try await store(StoreOrder.self)
    let due = StoreTestIDs.next()
    let later = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: due))
    clock.advance(by: .seconds(1800))
    try await orders.insert(StoreOrder(id: later))
    let laterDeadline = try await orders.deadlines(of: later)
    #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
    clock.advance(by: .seconds(1801))
    #expect(try await orders.fireDueTimeouts(limit: 10) == 1)
    #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
    #expect(try await orders.load(due)?.state == "cancelled")
    let history = try await orders.history(of: due)
    #expect(history.map(\.cause) == [.timeout] && history.map(\.event) == ["expire"])
    #expect(history.first?.dueAt == clock.now - 1)
    #expect(StoreMarks.shared.of(due).contains("after expire"))
    #expect(try await orders.deadlines(of: later) == laterDeadline)
    #expect(try await orders.load(later)?.state == "awaitingPayment")
  }

  /// P10: schedulers running at once fire every due deadline exactly once.
  func concurrentSchedulersFireEachDeadlineOnce() async throws {
    let orders = try await store(StoreOrder.self)
    let ids = (0..<40).map { _ in StoreTestIDs.next() }
    for id in ids { try await orders.insert(StoreOrder(id: id)) }
    try await orders.fire("pay", on: ids[0])
    clock.advance(by: .seconds(3601))
    let fired = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var total = 0
          while let count = try? await orders.fireDueTimeouts(limit: 3), count > 0 { total += count }
          return total
        }
      }
      return await group.reduce(0, +)
    }
    #expect(fired == 39)
    #expect(try await orders.count(in: "cancelled") == 39)
    for id in ids.dropFirst() { #expect(try await orders.history(of: id).count == 1) }
  }

  /// P8: a posted event is a deadline of no state: an exit keeps it, it fires once when due.
  func postedEventFiresOnce() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.post("cancel", to: id, after: .seconds(60))
    try await orders.fire("pay", on: id)
    #expect(try await orders.deadlines(of: id).map(\.event) == ["cancel"])
    clock.advance(by: .seconds(61))
    #expect(try await orders.fireDueTimeouts(limit: 10) == 1)
    #expect(try await orders.load(id)?.state == "cancelled")
    #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
    #expect(await storeError { try await orders.post("cancel", to: StoreTestIDs.next(), after: .zero) } != nil)
  }

  /// P11: a deadline whose guards are false is consumed and nothing happens.
  func deadlineWithFalseGuardsIsConsumed() async throws {
    let players = try await store(StorePlayer.self)
    let id = StoreTestIDs.next()
    try await players.insert(StorePlayer(id: id))
    for event in ["power", "play", "seek"] { try await players.fire(event, on: id) }
    clock.advance(by: .seconds(61))
    #expect(try await players.fireDueTimeouts(limit: 10) == 1)
    #expect(try await players.load(id)?.state == "on/stopped")
    #expect(try await players.deadlines(of: id).isEmpty)
    // A deadline the machine refuses (no transition for the event now) is consumed too, and
    // counted: nothing is written, it is gone.
    let orders = try await store(StoreOrder.self)
    let order = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: order))
    try await orders.post("ship", to: order, after: .seconds(1))
    clock.advance(by: .seconds(2))
    #expect(try await orders.fireDueTimeouts(limit: 10) == 1)
    #expect(try await orders.history(of: order).isEmpty)
    #expect(try await orders.deadlines(of: order).filter { $0.event == "ship" }.isEmpty)
  }

  /// P16: each step on an outbox event writes a message in its transaction; delivery after the
  /// commit reaches the handler; a failed delivery is retried (at least once), a delivered message
  /// is not delivered again; a rolled-back step writes none.
  func outboxDeliversAtLeastOnce() async throws {
    let orders = try await store(StoreOrder.self, outbox: ["ship", "smash"])
    let received = StoreMarks()
    let failures = StoreMarks()
    factory.handle(orders, topic: "ship") { message in
      if failures.of(0).isEmpty {
        failures.append(0, "failed \(message.id)")
        throw StoreTestFailure.entry
      }
      received.append(0, "\(message.entityID)@\(message.version):\(String(decoding: message.payload, as: UTF8.self))")
    }
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.fire("pay", on: id)
    _ = await storeError { try await orders.fire("smash", on: id) }
    try await orders.fire("ship", on: id)
    #expect(try await orders.deliverOutbox(limit: 10) == 0)
    #expect(received.of(0).isEmpty && failures.of(0).count == 1)
    clock.advance(by: .seconds(60))
    #expect(try await orders.deliverOutbox(limit: 10) == 1)
    #expect(received.of(0).count == 1)
    #expect(received.of(0).first?.hasPrefix("\(id)@2:") == true)
    #expect(received.of(0).first?.contains("\"to\":\"shipped\"") == true)
    clock.advance(by: .seconds(60))
    #expect(try await orders.deliverOutbox(limit: 10) == 0)
    #expect(received.of(0).count == 1)
  }
}
