// The PostgreSQL fast path of Persistence §6 runs as one statement in autocommit: what that
// puts at risk beyond the conformance suite's differential checks. The statement is its own
// transaction, so a session ended under it leaves its outcome unknown (P6); it must honour
// `NOWAIT` (P3); and under contention on one row, a statement that finds the row moved on must
// leave the fire to the locked step, losing nothing (P2, P3).

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL fast path: one statement in autocommit",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresFastPathTests {
  let factory = PostgresStoreFactory()
  var database: PostgresTestDatabase { factory.database }

  func switches() async throws -> PostgresStateMachineStore<StoreSwitch> {
    try await factory.makeStore(StoreSwitch.self, clock: .database, outbox: []) as! PostgresStateMachineStore<StoreSwitch>
  }

  /// The crash points (Persistence §9) one fire passes.
  func crashPoints(_ store: PostgresStateMachineStore<StoreSwitch>, _ fire: () async throws -> Void) async throws
    -> [PostgresStoreCrashPoint]
  {
    let seen = PostgresSeenPoints()
    store.onCrashPoint { seen.append($0) }
    try await fire()
    store.onCrashPoint { _ in }
    return seen.points
  }

  @Test("Persistence §6: an event without code is one statement that commits itself; one with code takes the locked step (P1)")
  func oneStatement() async throws {
    let store = try await switches()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    // No BEGIN and no COMMIT of the store's: the only point is after the statement committed.
    #expect(try await crashPoints(store) { try await store.fire("flip", on: id) } == [.afterCommit])
    #expect(try await crashPoints(store) { try await store.fire("jam", on: id) } == PostgresStoreCrashPoint.allCases)
    // A rejected event without code writes nothing, then the locked step tells the rejection.
    let error = await storeError { try await store.fire("tap", on: id) }
    guard case .rejected = error else {
      Issue.record("expected .rejected, got \(String(describing: error))")
      return
    }
    #expect(try await store.history(of: id).map(\.version) == [1, 2])
    #expect(try await store.storedState(of: id)?.state == "jammed")
  }

  @Test("P3: with NOWAIT, the one statement on a row another transaction holds is .locked, nothing written")
  func noWait() async throws {
    let store = try await switches()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    try await database.client.withConnection { connection in
      try await connection.query("BEGIN", logger: PostgresStepLogger.logger)
      try await connection.query(
        PostgresQuery(unsafeSQL: "SELECT id FROM store_switches WHERE id = \(id) FOR UPDATE"), logger: PostgresStepLogger.logger)
      let error = await storeError { try await store.fire("flip", on: id, options: FireOptions(lock: .noWait)) }
      guard case .locked(let lockedID) = error else {
        Issue.record("expected .locked, got \(String(describing: error))")
        return
      }
      #expect(lockedID == "\(id)")
      try await connection.query("ROLLBACK", logger: PostgresStepLogger.logger)
    }
    #expect(try await store.history(of: id).isEmpty)
    let fired = try await store.fire("flip", on: id, options: FireOptions(lock: .noWait))
    #expect(fired.from == "off" && fired.to == "on" && fired.version == 1)
  }

  @Test("P2, P3: 8 tasks × 25 fast fires on one row: every fire applies once, in one gapless history")
  func contention() async throws {
    let store = try await switches()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    let fired = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<25 { _ = try await store.fire("flip", on: id) }
          return 25
        }
      }
      return try await group.reduce(0, +)
    }
    let history = try await store.history(of: id)
    #expect(fired == 200)
    #expect(history.map(\.version) == Array(1...200))
    for (earlier, later) in zip(history, history.dropFirst()) { #expect(later.from == earlier.to && later.from != later.to) }
    let stored = try #require(try await store.storedState(of: id))
    #expect(stored.version == 200 && stored.state == "off")
  }

  @Test(
    "P6: a fast fire whose session ends during its statement is .commitOutcomeUnknown; the server rolled it back",
    .serialized, arguments: [false, true])
  func sessionEndedDuringTheStatement(planMade: Bool) async throws {
    let store = try await switches()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    if planMade {
      // The event's plan is made by a fire on another row: this fire then goes as a batch's.
      let other = StoreTestIDs.next()
      try await store.insert(StoreSwitch(id: other))
      _ = try await store.fire("flip", on: other)
    }
    // A trigger makes the statement's update of this schema's switches take 5 s, long enough to
    // end its session from another connection while it runs.
    try await database.execute(
      "CREATE FUNCTION slow_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5); RETURN NULL; END $$")
    try await database.execute(
      "CREATE TRIGGER slow_update AFTER UPDATE ON store_switches FOR EACH ROW EXECUTE FUNCTION slow_update()")
    let firing = Task { await storeError { try await store.fire("flip", on: id) } }
    var terminated = false
    for _ in 0..<200 where !terminated {
      try await Task.sleep(for: .milliseconds(25))
      let rows = try await database.query(
        "SELECT count(pg_terminate_backend(pid)) > 0 FROM pg_stat_activity WHERE datname = current_database() "
          + "AND (query LIKE 'WITH %' OR query LIKE 'EXECUTE sm_statement_%') AND wait_event = 'PgSleep' "
          + "AND pid <> pg_backend_pid()")
      terminated = try #require(rows.first).decode(Bool.self)
    }
    #expect(terminated)
    let error = await firing.value
    guard case .commitOutcomeUnknown(let requestID, _) = error else {
      Issue.record("expected .commitOutcomeUnknown, got \(String(describing: error))")
      return
    }
    #expect(requestID == nil)
    // The pool may hand out the ended connection once more: that statement fails, nothing ran.
    do {
      try await database.execute("DROP TRIGGER slow_update ON store_switches")
    } catch {
      try await database.execute("DROP TRIGGER slow_update ON store_switches")
    }
    #expect(try await store.history(of: id).isEmpty)
    #expect(try await store.storedState(of: id)?.version == 0)
    let fired = try await store.fire("flip", on: id)
    #expect(fired.to == "on" && fired.version == 1)
  }
}

/// The crash points a store passed, from whichever thread it passed them on.
final class PostgresSeenPoints: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [PostgresStoreCrashPoint] = []

  func append(_ point: PostgresStoreCrashPoint) { lock.withLock { seen.append(point) } }
  var points: [PostgresStoreCrashPoint] { lock.withLock { seen } }
}
#endif
