// The conformance suite (Persistence §9): every rule of Persistence §3 a store must keep, written
// against the `StateMachineStore` protocol alone, so that the in-memory store runs it now and the
// SQLite and PostgreSQL stores run it unchanged. Each check names its rule (P…).

import Foundation
import StateMachines
import Testing

/// The error `body` throws, or `nil` when it returns.
func storeError<R>(_ body: () async throws -> R) async -> StateMachineStoreError? {
  do {
    _ = try await body()
    return nil
  } catch let error as StateMachineStoreError {
    return error
  } catch {
    Issue.record("not a StateMachineStoreError: \(error)")
    return nil
  }
}

/// The rejection inside a store error, comparable.
func rejection(_ error: StateMachineStoreError?) -> StateMachineErrorCase? {
  guard case .rejected(let reason) = error else { return nil }
  return StateMachineErrorCase(reason)
}

/// The rules of Persistence §3, generic over the store.
struct StoreConformance {
  let factory: any StoreFactory
  let clock = ManualStoreClock()

  func store<Model: StoreManagedStateMachine & Codable>(_ type: Model.Type, outbox: [String] = []) async throws
    -> any StateMachineStore<Model>
  {
    try await factory.makeStore(type, clock: .manual(clock), outbox: outbox)
  }

  // MARK: P1, P2: one step, one transaction; versions and history

  /// P1, P2: insert at version 0; a fire writes the state, version + 1, the columns its entry
  /// action changed, one history row; load sees all of it.
  func flatRoundTrip() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let inserted = try #require(try await orders.load(id))
    #expect(inserted.state == "awaitingPayment")
    #expect(StoreOrder.stateMachine.storedState(of: inserted).version == 0)
    let fired = try await orders.fire("pay", on: id)
    #expect(fired.from == "awaitingPayment" && fired.to == "paid" && fired.version == 1)
    let loaded = try #require(try await orders.load(id))
    #expect(loaded.state == "paid")
    #expect(loaded.payments == 1)
    #expect(StoreOrder.stateMachine.storedState(of: loaded).version == 1)
    let history = try await orders.history(of: id)
    #expect(history.map(\.version) == [1])
    #expect(history.map { "\($0.from)-\($0.event)->\($0.to)" } == ["awaitingPayment-pay->paid"])
    #expect(await storeError { try await orders.fire("pay", on: StoreTestIDs.next()) }.map { "\($0)" }?.contains("no row") == true)
  }

  /// Load → fire → load keeps every rule of the Hierarchy article: each stored step ends where a
  /// plain object firing the same events ends (nesting, history, regions, eventless and queued
  /// steps, a final state), and the version grows by one per microstep (P1).
  func statechartRoundTrips() async throws {
    let players = try await store(StorePlayer.self)
    let id = StoreTestIDs.next()
    try await players.insert(StorePlayer(id: id))
    let oracle = PlainPlayer()
    var version: Int64 = 0
    // (event, microsteps): boot is followed by an eventless step, load by a queued one.
    let script: [(String, Int64)] = [
      ("power", 1), ("play", 1), ("power", 1), ("power", 1), ("power", 1), ("deck", 1), ("mute", 1), ("hd", 1),
      ("leave", 1), ("boot", 2), ("halt", 1), ("load", 2), ("eject", 1),
    ]
    for (event, microsteps) in script {
      #expect(oracle.fire(event), "the oracle takes \(event)")
      let fired = try await players.fire(event, on: id)
      version += microsteps
      #expect(fired.to == oracle.state, "\(event)")
      #expect(fired.version == version, "\(event)")
      let loaded = try #require(try await players.load(id))
      #expect(loaded.state == oracle.state, "\(event)")
      #expect(StorePlayer.stateMachine.storedState(of: loaded).version == version)
    }
    let stored = try #require(try await players.load(id))
    #expect(StorePlayer.stateMachine.isTerminated(stored))
    #expect(rejection(await storeError { try await players.fire("power", on: id) }) == .terminated(event: "power", state: "ejected"))
    // P2: one history row per microstep, versions 1…n, each from its predecessor's to.
    let history = try await players.history(of: id)
    #expect(history.map(\.version) == Array(1...version))
    for (earlier, later) in zip(history, history.dropFirst()) { #expect(later.from == earlier.to) }
  }

  /// S15 across the store: the history record written by one step is what the next loaded object
  /// resumes with.
  func historySurvivesLoad() async throws {
    let players = try await store(StorePlayer.self)
    let id = StoreTestIDs.next()
    try await players.insert(StorePlayer(id: id))
    for event in ["power", "play", "power"] { try await players.fire(event, on: id) }
    let off = try #require(try await players.load(id))
    #expect(off.state == "off")
    #expect(StorePlayer.stateMachine.storedState(of: off).history == ["on/resume": ["on/playing"]])
    #expect(try await players.fire("power", on: id).to == "on/playing")
  }

  /// `die` terminates the row in a state that is not final; it stays terminated across loads.
  func dieSurvivesLoad() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.fire("crash", on: id)
    let loaded = try #require(try await orders.load(id))
    #expect(loaded.state == "awaitingPayment")
    #expect(StoreOrder.stateMachine.isTerminated(loaded))
    #expect(rejection(await storeError { try await orders.fire("pay", on: id) }) == .terminated(event: "pay", state: "awaitingPayment"))
    // P8: a terminated row keeps no deadline.
    #expect(try await orders.deadlines(of: id).isEmpty)
  }

  // MARK: P3, P4: lost races

  /// P3: a fire by id evaluates the event against the row's current state: the second `pay` is
  /// rejected, and nothing is written.
  func fireByIDSeesTheNewState() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.fire("pay", on: id)
    #expect(rejection(await storeError { try await orders.fire("pay", on: id) }) == .noTransition(event: "pay", state: "paid"))
    #expect(try await orders.history(of: id).count == 1)
    #expect(StoreOrder.stateMachine.storedState(of: try #require(try await orders.load(id))).version == 1)
  }

  /// P4: a stale object gets a conflict naming the row's current version and state; nothing is
  /// written and the object is unchanged. With `retry: .reload` the event runs on the fresh row.
  func staleObjectConflicts() async throws {
    let orders = try await store(StoreOrder.self)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let stale = try #require(try await orders.load(id))
    try await orders.fire("pay", on: id)
    let error = await storeError { try await orders.fire("cancel", on: stale) }
    guard case .conflict(let conflictID, let expected, let current, let state) = error else {
      Issue.record("expected a conflict, got \(String(describing: error))")
      return
    }
    #expect(conflictID == "\(id)" && expected == 0 && current == 1 && state == "paid")
    #expect(stale.state == "awaitingPayment")
    #expect(try await orders.history(of: id).count == 1)
    let retried = try await orders.fire("cancel", on: stale, options: FireOptions(retry: .reload(max: 1)))
    #expect(retried.from == "paid" && retried.to == "cancelled" && retried.version == 2)
    #expect(stale.state == "awaitingPayment")
    // A fresh object fires without a conflict.
    let fresh = try #require(try await orders.load(id))
    #expect(rejection(await storeError { try await orders.fire("pay", on: fresh) }) == .noTransition(event: "pay", state: "cancelled"))
  }

  /// P3, P4 under contention (Persistence §9, in one process): tasks fire on 5 ring rows at once, half by id,
  /// half on stale objects with retries. Successes = Σ versions = history rows; per row the
  /// versions are 1…n and every transition starts where the previous one ended.
  func concurrentFiresKeepTheLedger() async throws {
    let rings = try await store(StoreRing.self)
    let ids = (0..<5).map { _ in StoreTestIDs.next() }
    for id in ids { try await rings.insert(StoreRing(id: id)) }
    let successes = await withTaskGroup(of: Int.self) { group in
      for worker in 0..<8 {
        group.addTask {
          var count = 0
          for round in 0..<40 {
            let id = ids[(worker + round) % ids.count]
            let event = round % 7 == 6 ? "reset" : "advance"
            do {
              if worker % 2 == 0 {
                try await rings.fire(event, on: id)
              } else {
                guard let stale = try await rings.load(id) else { continue }
                try await rings.fire(event, on: stale, options: FireOptions(retry: .reload(max: 3)))
              }
              count += 1
            } catch {
              // Rejections and exhausted retries are expected; nothing else is.
              switch error as? StateMachineStoreError {
              case .rejected, .conflict: break
              default: Issue.record("unexpected \(error)")
              }
            }
          }
          return count
        }
      }
      return await group.reduce(0, +)
    }
    var versions: Int64 = 0
    var rows = 0
    for id in ids {
      let loaded = try #require(try await rings.load(id))
      let version = StoreRing.stateMachine.storedState(of: loaded).version
      let history = try await rings.history(of: id)
      versions += version
      rows += history.count
      #expect(history.map(\.version) == Array(stride(from: 1, through: version, by: 1)))
      for (earlier, later) in zip(history, history.dropFirst()) { #expect(later.from == earlier.to) }
      #expect(history.last?.to ?? "s0" == loaded.state)
    }
    #expect(Int64(successes) == versions)
    #expect(successes == rows)
    #expect(successes > 0)
  }
}
