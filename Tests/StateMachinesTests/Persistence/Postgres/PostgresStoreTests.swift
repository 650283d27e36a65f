// What only the PostgreSQL store has (Persistence §6, §7, §9): row locks that another
// connection holds (`NOWAIT`, `SKIP LOCKED`), the database's clock, and a COMMIT lost with its
// connection.

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL store: row locks, the database's clock, a lost COMMIT",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresStoreTests {
  let factory = PostgresStoreFactory()
  var database: PostgresTestDatabase { factory.database }

  func orders(clock: StoreClock) async throws -> PostgresStateMachineStore<StoreOrder> {
    try await factory.makeStore(StoreOrder.self, clock: clock, outbox: []) as! PostgresStateMachineStore<StoreOrder>
  }

  /// One value of a one-row query.
  func value<T: PostgresDecodable>(_ sql: String, as type: T.Type) async throws -> T {
    try #require(try await database.query(sql).first).decode(T.self)
  }

  @Test("P3, P10: NOWAIT on a row another transaction holds is .locked; a scheduler pass skips it without waiting")
  func lockedRow() async throws {
    let clock = ManualStoreClock()
    let orders = try await orders(clock: .manual(clock))
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    clock.advance(by: .seconds(3601))  // the payment deadline (1 h) is due
    try await database.client.withConnection { connection in
      try await connection.query("BEGIN", logger: PostgresStepLogger.logger)
      try await connection.query(
        PostgresQuery(unsafeSQL: "SELECT id FROM store_orders WHERE id = \(id) FOR UPDATE"), logger: PostgresStepLogger.logger)
      let error = await storeError { try await orders.fire("pay", on: id, options: FireOptions(lock: .noWait)) }
      guard case .locked(let lockedID) = error else {
        Issue.record("expected .locked, got \(String(describing: error))")
        return
      }
      #expect(lockedID == "\(id)")
      let started = ContinuousClock.now
      #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
      #expect(ContinuousClock.now - started < .seconds(5))
      try await connection.query("ROLLBACK", logger: PostgresStepLogger.logger)
    }
    #expect(try await orders.history(of: id).isEmpty)
    #expect(try await orders.fireDueTimeouts(limit: 10) == 1)
    #expect(try await orders.storedState(of: id)?.state == "cancelled")
    #expect(try await orders.history(of: id).map(\.cause) == [.timeout])
  }

  @Test("P15: with the database's clock, a deadline is due at now() + delay on the server, and fires from there")
  func databaseClock() async throws {
    let orders = try await orders(clock: .database)
    let id = StoreTestIDs.next()
    let before = try await value("SELECT now()", as: Date.self)
    try await orders.insert(StoreOrder(id: id))
    let after = try await value("SELECT now()", as: Date.self)
    let deadline = try #require(try await orders.deadlines(of: id).first)
    #expect(deadline.dueAt >= before + 3600 && deadline.dueAt <= after + 3600)
    #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
    // Due by the server's clock, whatever the process's.
    try await database.execute("UPDATE sm_deadlines SET due_at = now() - interval '2 seconds' WHERE entity_id = '\(id)'")
    #expect(try await orders.fireDueTimeouts(limit: 10) == 1)
    let history = try await orders.history(of: id)
    #expect(history.map(\.cause) == [.timeout])
    let fired = try #require(history.first)
    #expect(fired.dueAt != nil && fired.at > fired.dueAt!)
  }

  @Test("P6: a connection dropped during COMMIT is .commitOutcomeUnknown; refiring with the request id runs the step once")
  func connectionDroppedDuringCommit() async throws {
    let orders = try await orders(clock: .system)
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    // A deferred trigger makes the COMMIT of an update of this schema's orders take 5 s, long
    // enough to end its session from another connection while the COMMIT runs.
    try await database.execute(
      "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5); RETURN NULL; END $$")
    try await database.execute(
      "CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON store_orders DEFERRABLE INITIALLY DEFERRED "
        + "FOR EACH ROW EXECUTE FUNCTION slow_commit()")
    let request = UUID()
    let firing = Task { await storeError { try await orders.fire("pay", on: id, options: FireOptions(requestID: request)) } }
    var terminated = false
    for _ in 0..<200 where !terminated {
      try await Task.sleep(for: .milliseconds(25))
      terminated = try await value(
        "SELECT count(pg_terminate_backend(pid)) > 0 FROM pg_stat_activity WHERE datname = current_database() "
          + "AND query = 'COMMIT' AND wait_event = 'PgSleep' AND pid <> pg_backend_pid()", as: Bool.self)
    }
    #expect(terminated)
    let error = await firing.value
    guard case .commitOutcomeUnknown(let unknown, _) = error else {
      Issue.record("expected .commitOutcomeUnknown, got \(String(describing: error))")
      return
    }
    #expect(unknown == request)
    #expect(!StoreMarks.shared.of(id).contains("after pay"))
    // The pool may hand out the ended connection once more: that statement fails, nothing ran.
    do {
      try await database.execute("DROP TRIGGER slow_commit ON store_orders")
    } catch {
      try await database.execute("DROP TRIGGER slow_commit ON store_orders")
    }
    // The server rolled the step back: the retry runs it, once; a second retry replays it.
    let retried = try await orders.fire("pay", on: id, options: FireOptions(requestID: request))
    #expect(!retried.replayed && retried.to == "paid" && retried.version == 1)
    let again = try await orders.fire("pay", on: id, options: FireOptions(requestID: request))
    #expect(again.replayed && again.to == "paid" && again.version == 1)
    #expect(try await orders.history(of: id).map(\.requestID) == [request])
    #expect(StoreMarks.shared.of(id).filter { $0 == "after pay" }.count == 1)
  }
}
#endif
