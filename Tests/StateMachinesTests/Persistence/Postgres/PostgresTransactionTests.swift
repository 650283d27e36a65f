// The PostgreSQL store inside the application's own queries (Persistence §4.2): a transaction
// that holds the application's statements and the store's fires, whose `after` callbacks run only
// after COMMIT (P5); scopes as SQL conditions in the application's own WHERE (P14).

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL store: withTransaction and scopes in the application's queries",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresTransactionTests {
  let factory = PostgresStoreFactory()
  var database: PostgresTestDatabase { factory.database }

  func orders() async throws -> PostgresStateMachineStore<StoreOrder> {
    let store = try await factory.makeStore(StoreOrder.self, clock: .database, outbox: ["pay"])
    try await database.execute("CREATE TABLE IF NOT EXISTS invoices (order_id bigint NOT NULL)")
    return store as! PostgresStateMachineStore<StoreOrder>
  }

  func invoices(of id: Int) async throws -> Int {
    let rows = try await database.client.query(
      "SELECT count(*) FROM invoices WHERE order_id = \(id)", logger: PostgresStepLogger.logger
    ).collect()
    return try #require(rows.first).decode(Int.self)
  }

  @Test("P1, P5: the application's insert and a fire commit together; `after` and observers run after COMMIT")
  func commitsTogether() async throws {
    let orders = try await orders()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let fired = try await orders.withTransaction { tx in
      try await tx.connection.query("INSERT INTO invoices (order_id) VALUES (\(id))", logger: PostgresStepLogger.logger)
      let fired = try await tx.fire(.pay, on: id)
      // Inside the transaction: nothing held back has run, nothing is visible to others.
      #expect(StoreMarks.shared.of(id).isEmpty)
      #expect(try await invoices(of: id) == 0)
      #expect(try await orders.storedState(of: id)?.state == "awaitingPayment")
      return fired
    }
    #expect(fired.to == "paid" && fired.version == 1)
    #expect(StoreMarks.shared.of(id) == ["after pay", "observed awaitingPayment->paid"])
    #expect(try await invoices(of: id) == 1)
    #expect(try await orders.storedState(of: id)?.state == "paid")
    #expect(try await orders.history(of: id).map(\.to) == ["paid"])
    #expect(try await orders.pendingMessages().map(\.topic) == ["pay"])
    // FireOptions.expectedVersion holds inside the application's transaction too (P4 by id).
    let stale = await storeError {
      try await orders.withTransaction { tx in try await tx.fire(.ship, on: id, options: FireOptions(expectedVersion: 0)) }
    }
    guard case .conflict(_, 0, 1, "paid") = stale else {
      Issue.record("expected a conflict at version 1 in 'paid', got \(String(describing: stale))")
      return
    }
    #expect(try await orders.storedState(of: id)?.version == 1)
    // The typed scope selects what the string scope does.
    var typed = PostgresBindings()
    var named = PostgresBindings()
    #expect(orders.scope(in: .paid).sql(appendingTo: &typed) == orders.scope(in: "paid").sql(appendingTo: &named))
    #expect(typed.count == named.count && typed.count > 0)
  }

  @Test("P5: a throwing body rolls back the application's statements and the fires; no `after` runs")
  func throwRollsBack() async throws {
    struct AppFailure: Error {}
    let orders = try await orders()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    await #expect(throws: AppFailure.self) {
      try await orders.withTransaction { tx in
        try await tx.connection.query("INSERT INTO invoices (order_id) VALUES (\(id))", logger: PostgresStepLogger.logger)
        try await tx.fire("pay", on: id)
        throw AppFailure()
      }
    }
    #expect(StoreMarks.shared.of(id).isEmpty)
    #expect(try await invoices(of: id) == 0)
    let stored = try await orders.storedState(of: id)
    #expect(stored?.state == "awaitingPayment" && stored?.version == 0)
    #expect(try await orders.history(of: id).isEmpty)
    #expect(try await orders.pendingMessages().isEmpty)
  }

  @Test("P3: a rejection inside is a typed error; the transaction goes on and commits the rest")
  func rejectionIsTyped() async throws {
    let orders = try await orders()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.withTransaction { tx async throws -> Void in
      let rejection = await storeError { try await tx.fire("ship", on: id) }  // not paid yet
      if case .rejected(.noTransition(let event, let state)) = rejection {
        #expect(event == "ship" && state == "awaitingPayment")
      } else {
        Issue.record("expected .rejected(.noTransition), got \(String(describing: rejection))")
      }
      try await tx.connection.query("INSERT INTO invoices (order_id) VALUES (\(id))", logger: PostgresStepLogger.logger)
      try await tx.fire("pay", on: id)
    }
    #expect(try await invoices(of: id) == 1)
    #expect(try await orders.history(of: id).map(\.event) == ["pay"])
    #expect(StoreMarks.shared.of(id) == ["after pay", "observed awaitingPayment->paid"])
  }

  @Test("P4: a stale object inside is .conflict, rethrown out of the transaction, which rolls back")
  func conflictIsTyped() async throws {
    let orders = try await orders()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let stale = try #require(try await orders.load(id))
    try await orders.fire("remind", on: id)  // the row moves to version 1
    do {
      try await orders.withTransaction { tx in
        try await tx.connection.query("INSERT INTO invoices (order_id) VALUES (\(id))", logger: PostgresStepLogger.logger)
        try await tx.fire("pay", on: stale)
      }
      Issue.record("a stale object's fire committed")
    } catch let error as StateMachineStoreError {
      guard case .conflict(_, let expected, let current, let state) = error else {
        Issue.record("expected .conflict, got \(error)")
        return
      }
      #expect(expected == 0 && current == 1 && state == "awaitingPayment")
    }
    #expect(try await invoices(of: id) == 0)
    // With a reload, the same fire goes through on the row as it now is.
    let fired = try await orders.withTransaction { tx in
      try await tx.fire(.pay, on: stale, options: FireOptions(retry: .reload(max: 1)))
    }
    #expect(fired.to == "paid" && fired.version == 2)
    #expect(
      StoreMarks.shared.of(id)
        == ["observed awaitingPayment->awaitingPayment", "after pay", "observed awaitingPayment->paid"])
  }

  @Test("P14: a scope is a condition in the application's own query, joined with its own predicate")
  func scopeComposes() async throws {
    let players = try await factory.makeStore(StorePlayer.self, clock: .database, outbox: [])
      as! PostgresStateMachineStore<StorePlayer>
    try await database.execute("CREATE TABLE IF NOT EXISTS player_owners (player_id bigint NOT NULL, owner text NOT NULL)")
    let ids = (0..<4).map { _ in StoreTestIDs.next() }
    for (index, id) in ids.enumerated() {
      try await players.insert(StorePlayer(id: id))
      try await database.execute("INSERT INTO player_owners VALUES (\(id), '\(index % 2 == 0 ? "ann" : "bob")')")
    }
    // Two players in on/stopped (a descendant of `on`), one of each owner; one in `deck`.
    try await players.fire("power", on: ids[0])
    try await players.fire("power", on: ids[1])
    try await players.fire("deck", on: ids[2])
    let on = players.scope(in: "on", alias: "p")
    let owner = "ann"
    let rows = try await database.client.query(
      """
      SELECT p.id FROM store_players p JOIN player_owners o ON o.player_id = p.id
       WHERE o.owner = \(owner) AND \(on) AND p.id >= \(ids[0]) ORDER BY p.id
      """, logger: PostgresStepLogger.logger
    ).collect()
    #expect(try rows.map { try $0.decode(Int.self) } == [ids[0]])
    // The same condition with bindings already in place, and unqualified.
    var bindings = PostgresBindings()
    bindings.append(ids[0])
    let condition = players.scope(in: "audio").sql(appendingTo: &bindings)
    let inAudio = try await database.client.query(
      PostgresQuery(unsafeSQL: "SELECT id FROM store_players WHERE id >= $1 AND \(condition)", binds: bindings),
      logger: PostgresStepLogger.logger
    ).collect()
    #expect(try inAudio.map { try $0.decode(Int.self) } == [ids[2]])
    // A state the definition does not have matches nothing.
    let none = players.scope(in: "nowhere")
    let nothing = try await database.client.query("SELECT id FROM store_players WHERE \(none)", logger: PostgresStepLogger.logger)
      .collect()
    #expect(nothing.isEmpty)
  }
}
#endif
