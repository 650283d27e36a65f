// The conformance suite, continued: where callbacks run (P5), request ids (P6), definition
// changes (P12) and scopes (P14).

import Foundation
import StateMachines
import Testing

extension StoreConformance {
  // MARK: P5: where callbacks run

  /// P5: `after` callbacks and observers run once, after the commit, in step order; never for a
  /// rejected step.
  func afterCallbacksRunOnceAfterCommit() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.fire("pay", on: id)
    #expect(StoreMarks.shared.of(id) == ["after pay", "observed awaitingPayment->paid"])
    _ = await storeError { try await orders.fire("pay", on: id) }
    #expect(StoreMarks.shared.of(id).count == 2)
    // The guard reads a column of the fresh object: false, rejected, nothing runs.
    let blocked = try #require(try await orders.load(id))
    blocked.shippable = false
    #expect(rejection(await storeError { try await orders.fire("ship", on: blocked) }) == .guardsFailed(event: "ship", state: "paid"))
    #expect(StoreMarks.shared.of(id).count == 2)
    try await orders.fire("ship", on: id)
    #expect(StoreMarks.shared.of(id).suffix(2) == ["after ship", "observed paid->shipped"])
  }

  /// P5 with bad input: an entry action that throws rolls the whole step back: the row, its
  /// history and deadlines are unchanged, the `after` callback never runs, the object the caller
  /// holds is unchanged, and the error says which event failed.
  func throwingEntryActionRollsBack() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.fire("pay", on: id)
    let held = try #require(try await orders.load(id))
    let deadlines = try await orders.deadlines(of: id)
    let error = await storeError { try await orders.fire("smash", on: held) }
    guard case .callbackFailed(let event, _) = error else {
      Issue.record("expected callbackFailed, got \(String(describing: error))")
      return
    }
    #expect(event == "smash")
    #expect(StoreMarks.shared.of(id).contains("entry broken"))
    #expect(!StoreMarks.shared.of(id).contains("after smash"))
    #expect(held.state == "paid")
    let loaded = try #require(try await orders.load(id))
    #expect(loaded.state == "paid")
    #expect(StoreOrder.stateMachine.storedState(of: loaded).version == 1)
    #expect(try await orders.history(of: id).count == 1)
    #expect(try await orders.deadlines(of: id) == deadlines)
  }

  // MARK: P6: request ids

  /// P6: a fire repeated with its request id returns the recorded outcome and writes nothing; the
  /// id used for another event is refused.
  func requestIDIsIdempotent() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let request = UUID()
    let first = try await orders.fire("pay", on: id, options: FireOptions(requestID: request))
    #expect(!first.replayed)
    let again = try await orders.fire("pay", on: id, options: FireOptions(requestID: request))
    #expect(again.replayed && again.to == "paid" && again.version == 1)
    #expect(try await orders.history(of: id).count == 1)
    #expect(try await orders.history(of: id).last?.requestID == request)
    #expect(StoreMarks.shared.of(id).filter { $0 == "after pay" }.count == 1)
    let other = await storeError { try await orders.fire("cancel", on: id, options: FireOptions(requestID: request)) }
    guard case .requestIDReused = other else {
      Issue.record("expected requestIDReused, got \(String(describing: other))")
      return
    }
    #expect(try await orders.history(of: id).count == 1)
  }

  // MARK: P12: definition changes

  /// P12 with bad input: a row whose state is not in the definition is neither loaded nor fired;
  /// nothing is written; `verify()` reports it; `restore` repairs it.
  func unknownStoredStateIsRefused() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await factory.overwrite(orders, id: id, with: StoredMachineState(state: "legacy", version: 0))
    for error in [
      await storeError { try await orders.load(id) }, await storeError { try await orders.fire("pay", on: id) },
    ] {
      guard case .unknownStoredState(let badID, let state) = error else {
        Issue.record("expected unknownStoredState, got \(String(describing: error))")
        continue
      }
      #expect(badID == "\(id)" && state == "legacy")
    }
    #expect(try await orders.history(of: id).isEmpty)
    let report = try await orders.verify()
    #expect(report.unknownStates == ["\(id)": "legacy"])
    #expect(!report.isClean)
    // A history record naming a state that does not exist is refused too.
    let players = try await store(StorePlayer.self)
    let player = StoreTestIDs.next()
    try await players.insert(StorePlayer(id: player))
    try await factory.overwrite(
      players, id: player, with: StoredMachineState(state: "off", version: 0, history: ["on/resume": ["on/gone"]]))
    guard case .unknownStoredState = await storeError({ try await players.load(player) }) else {
      Issue.record("a history record of an unknown state was loaded")
      return
    }
  }

  /// `restore` (an operator's repair): no callback runs, one history row, deadlines follow the
  /// new state (P8); an unknown target is rejected and nothing is written.
  func restoreRepairs() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.fire("pay", on: id)
    #expect(try await orders.deadlines(of: id).isEmpty)
    try await orders.restore(id, to: "awaitingPayment", reason: "refund")
    let loaded = try #require(try await orders.load(id))
    #expect(loaded.state == "awaitingPayment" && loaded.payments == 1)
    let history = try await orders.history(of: id)
    #expect(history.map(\.cause) == [.event, .restore])
    #expect(try await orders.deadlines(of: id).map(\.state) == ["awaitingPayment"])
    #expect(rejection(await storeError { try await orders.restore(id, to: "nowhere", reason: "") }) == .unknownState("nowhere"))
    #expect(try await orders.history(of: id).count == 2)
  }

  // MARK: P14: scopes

  /// P14: `ids(in:)` and `count(in:)` see committed rows; a compound state matches its
  /// descendants, a parallel state its regions; paging with `after` returns every id once.
  func scopes() async throws {
    let players = try await store(StorePlayer.self)
    var ids: [Int] = []
    for _ in 0..<6 {
      let id = StoreTestIDs.next()
      ids.append(id)
      try await players.insert(StorePlayer(id: id))
    }
    try await players.fire("power", on: ids[0])
    try await players.fire("power", on: ids[1])
    try await players.fire("play", on: ids[1])
    try await players.fire("deck", on: ids[2])
    #expect(try await players.count(in: "on") == 2)
    #expect(Set(try await players.ids(in: "on", after: nil, limit: 10)) == [ids[0], ids[1]])
    #expect(try await players.ids(in: "on/playing", after: nil, limit: 10) == [ids[1]])
    #expect(try await players.ids(in: "playing", after: nil, limit: 10) == [ids[1]])
    #expect(try await players.ids(in: "deck", after: nil, limit: 10) == [ids[2]])
    #expect(try await players.ids(in: "deck/audio/loud", after: nil, limit: 10) == [ids[2]])
    #expect(try await players.count(in: "off") == 3)
    #expect(try await players.count(in: "nowhere") == 0)
    var paged: [Int] = []
    var after: Int?
    while true {
      let page = try await players.ids(in: "off", after: after, limit: 2)
      if page.isEmpty { break }
      paged += page
      after = page.last
    }
    #expect(paged.count == 3 && Set(paged) == Set(ids[3...5]))
  }
}
