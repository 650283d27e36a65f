// What a lone fire costs the server, read from the server itself (Many application servers,
// prepared statements): `pg_stat_statements` (loaded by .ci/postgres, with planning tracked)
// counts each statement the store's fires ran, and how often the server planned it. The test
// has a database of its own, so that the counts are its own.

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL store: the server's work per lone fire",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresServerWorkTests {
  @Test("A lone fast fire is one statement, with no BEGIN or COMMIT, and the server plans it a few times per connection, not per fire")
  func loneFire() async throws {
    let connections = 2
    let (database, _) = try await PostgresTestDatabase.created(connections: connections)
    try await database.prepare(StoreSwitch.self)
    try await database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    let tracked = try await database.query("SELECT current_setting('pg_stat_statements.track_planning')::boolean")
    try #require(try tracked[0].decode(Bool.self), "pg_stat_statements.track_planning is off")
    let store = PostgresStateMachineStore<StoreSwitch>(database.client)
    let ids = (0..<40).map { _ in StoreTestIDs.next() }
    for id in ids { try await store.insert(StoreSwitch(id: id)) }
    try await database.execute(
      "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)")

    // 200 fires one after another, then 200 more, on a pool of two connections.
    let fires = 200
    try await fire(store, ids, rounds: 0..<5)
    let first = try await fireStatements(database)
    try await fire(store, ids, rounds: 5..<10)
    let second = try await fireStatements(database)

    // One statement per fire and nothing else: no BEGIN, COMMIT, lock or read. Two shapes: the
    // store's first fire of the event sends the fast statement while it learns the event's plan,
    // every later one the statement of a batch (here of one fire).
    #expect(first.count <= 2, "\(first)")
    #expect(first.map(\.calls).reduce(0, +) == fires, "\(first)")
    #expect(second.map(\.calls).reduce(0, +) == 2 * fires, "\(second)")
    // Planned a few times per connection, not per fire: PostgreSQL's plan cache plans a prepared
    // statement's first 5 executions for their values, then keeps its generic plan.
    for statement in first {
      #expect(statement.plans <= connections * 6, "\(statement.plans) plans for \(statement.calls) calls: \(statement.query)")
    }
    #expect(second.map(\.plans).reduce(0, +) == first.map(\.plans).reduce(0, +), "planned again: \(first) then \(second)")
  }

  /// Fires `flip` on every row, round after round, one fire at a time.
  private func fire(_ store: PostgresStateMachineStore<StoreSwitch>, _ ids: [Int], rounds: Range<Int>) async throws {
    for round in rounds {
      for id in ids { #expect(try await store.fire("flip", on: id).version == Int64(round + 1)) }
    }
  }

  /// The statements this database ran since the reset, with their calls and plans: all but the
  /// test's own reads of `pg_stat_statements` and the store's one read of its table's column
  /// types (`pg_attribute`, when the store first writes).
  private func fireStatements(_ database: PostgresTestDatabase) async throws -> [(query: String, calls: Int, plans: Int)] {
    try await database.query(
      """
      SELECT query, calls::bigint, plans::bigint FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE '%pg_attribute%'
      """
    ).map { try $0.decode((String, Int, Int).self) }
  }

  @Test("With a lock timeout every fire takes the locked step, in a transaction that sets the timeout")
  func lockTimeout() async throws {
    let (database, _) = try await PostgresTestDatabase.created(connections: 1)
    try await database.prepare(StoreSwitch.self)
    try await database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    let store = PostgresStateMachineStore<StoreSwitch>(
      database.client, options: PostgresStoreOptions(lockTimeout: .milliseconds(1500)))
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    try await database.execute(
      "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)")
    for version in 1...10 { #expect(try await store.fire("flip", on: id).version == Int64(version)) }
    let calls = Dictionary(
      try await database.query(
        """
        SELECT query, calls::bigint FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        """
      ).map { try $0.decode((String, Int).self) }, uniquingKeysWith: +)
    #expect(calls.filter { $0.key.hasPrefix("SET LOCAL lock_timeout") }.values.reduce(0, +) == 10, "\(calls)")
    #expect(calls.filter { $0.key.contains("FOR UPDATE") }.values.reduce(0, +) == 10, "\(calls)")
    #expect(!calls.keys.contains { $0.contains("SKIP LOCKED") }, "the fast statement ran: \(calls)")
    #expect(try await store.history(of: id).map(\.version) == Array(1...10))
  }
}
#endif
