// The PostgreSQL store plans its statements once per connection (Many application servers,
// prepared statements). A prepared statement lives in the server's session, so these tests take
// away what it relies on while the store runs: the statements themselves (`DEALLOCATE ALL`), the
// table's shape (a column added; a returned column's type changed), the session (terminated).
// Each time the store must prepare again and lose nothing. With the option off it prepares
// nothing. Each test's pool has one connection, so that the test's own statements run in the
// store's session and see its prepared statements.

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachines
@_spi(Testing) @testable import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL store: statements prepared once per connection",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresPreparedStatementTests {
  let database = PostgresTestDatabase(connections: 1)

  func switches(prepared: Bool = true) async throws -> PostgresStateMachineStore<StoreSwitch> {
    try await database.prepare(StoreSwitch.self)
    return PostgresStateMachineStore<StoreSwitch>(database.client, options: PostgresStoreOptions(preparesStatements: prepared))
  }

  /// The statements the store prepared in the pool's one session whose text starts with
  /// `prefix`: at the protocol level (not by SQL `PREPARE`), under names of this process.
  func preparedCount(_ prefix: String = "") async throws -> Int {
    let rows = try await database.query(
      "SELECT count(*) FROM pg_prepared_statements WHERE strpos(statement, '\(prefix)') = 1"
        + " AND NOT from_sql AND starts_with(name, 'sm_\(PostgresStatementNames.shared.token)_')")
    return try #require(rows.first).decode(Int.self)
  }

  /// Fires the fast event and the locked ones on a new row, and checks the row's history.
  func cycle(_ store: PostgresStateMachineStore<StoreSwitch>, id: Int) async throws {
    #expect(try await store.fire("flip", on: id).to == "on")
    #expect(try await store.fire("jam", on: id).to == "jammed")
    #expect(try await store.fire("fix", on: id).to == "off")
    let history = try await store.history(of: id)
    #expect(history.map(\.event) == ["flip", "jam", "fix"])
    #expect(history.map(\.version) == [1, 2, 3])
  }

  @Test("The fast statement, the locked step's lock and a write of machine columns alone are prepared once per connection")
  func preparedOnce() async throws {
    let store = try await switches()
    for id in (0..<3).map({ _ in StoreTestIDs.next() }) {
      try await store.insert(StoreSwitch(id: id))
      try await cycle(store, id: id)
    }
    // Whichever row they were sent for: one fast statement (flip), one lock of the row, and one
    // write of fix's step, which leaves the object's own columns as they were, so that the store
    // writes the machine columns alone. jam's entry action changes `jams`: that write binds the
    // application's columns and is sent unprepared.
    #expect(try await preparedCount("WITH moved AS (\n  UPDATE") == 2)
    #expect(try await preparedCount("SELECT") >= 1)
    let before = try await preparedCount()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    try await cycle(store, id: id)
    #expect(try await preparedCount() == before)
  }

  @Test("With preparesStatements: false the store prepares nothing, and every step still holds")
  func optionOff() async throws {
    let store = try await switches(prepared: false)
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    try await cycle(store, id: id)
    #expect(try await store.fire("flip", on: id, options: FireOptions(lock: .noWait)).version == 4)
    #expect(try await preparedCount() == 0)
  }

  @Test("DEALLOCATE ALL under a running store: the fast path, the locked step and a step in a transaction prepare again")
  func deallocated() async throws {
    let store = try await switches()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    try await cycle(store, id: id)
    try await database.execute("DEALLOCATE ALL")
    #expect(try await preparedCount() == 0)
    #expect(try await store.fire("flip", on: id).version == 4)  // fast, in autocommit
    try await database.execute("DEALLOCATE ALL")
    #expect(try await store.fire("flip", on: id, options: FireOptions(lock: .noWait)).version == 5)
    try await database.execute("DEALLOCATE ALL")
    #expect(try await store.fire("flip", on: id).version == 6)
    try await database.execute("DEALLOCATE ALL")
    #expect(try await store.fire("jam", on: id).version == 7)  // the locked step's transaction
    try await database.execute("DEALLOCATE ALL")
    let fired = try await store.withTransaction { transaction in try await transaction.fire("fix", on: id) }
    #expect(fired.version == 8)
    #expect(try await store.history(of: id).map(\.version) == Array(1...8))
    #expect(try await preparedCount() > 0)
  }

  @Test("DEALLOCATE ALL while displaced statements wait to be deallocated: every fire is applied once, and its answer says so")
  func deallocatedWithEvictionPending() async throws {
    let store = try await switches()
    // Two statements per connection for three shapes (the fast flip, the lock, fix's write):
    // every cycle displaces one, whose DEALLOCATE waits for the next statement outside a
    // transaction. Once the session has lost them all, that DEALLOCATE fails; the fire sent
    // after it must be judged by its own answer.
    try #require(store.engine.preparedStatements).capacity = 2
    for round in 0..<8 {
      // A row per round: `fix` is refused after two jams.
      let id = StoreTestIDs.next()
      try await store.insert(StoreSwitch(id: id))
      try await cycle(store, id: id)
      if round % 2 == 0 { try await database.execute("DEALLOCATE ALL") }
      #expect(try await store.fire("flip", on: id).version == 4, "round \(round)")
      #expect(try await store.fire("flip", on: id, options: FireOptions(lock: .noWait)).version == 5, "round \(round)")
      // One history row per fire told applied, and no version twice.
      #expect(try await store.history(of: id).map(\.version) == Array(1...5), "round \(round)")
      #expect(try await store.storedState(of: id)?.version == 5, "round \(round)")
    }
  }

  @Test("A column added, then a returned column's type changed, under a running store: its plans are made again")
  func tableAltered() async throws {
    let store = try await switches()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    try await cycle(store, id: id)
    try await database.execute("ALTER TABLE store_switches ADD COLUMN note text")
    try await cycle(store, id: id, from: 3)
    // `jams` is returned by the fast statement and the lock: its type is part of their results.
    try await database.execute("ALTER TABLE store_switches ALTER COLUMN jams TYPE integer")
    #expect(try await store.fire("flip", on: id).version == 7)
    #expect(try await store.fire("jam", on: id).version == 8)
    #expect(try await store.history(of: id).map(\.version) == Array(1...8))
    let stored = try #require(try await store.storedState(of: id))
    #expect(stored.version == 8 && stored.state == "jammed")
    #expect(try await store.load(id)?.jams == 3)
  }

  @Test("A session ended under a running store: the pool's new connection prepares the statements again", .timeLimit(.minutes(1)))
  func sessionEnded() async throws {
    let store = try await switches()
    let id = StoreTestIDs.next()
    try await store.insert(StoreSwitch(id: id))
    try await cycle(store, id: id)
    // The pool's one session is ended from another client while it is idle: a statement in
    // flight on a session the server ends may never be answered by postgres-nio.
    let pid = try #require(try await database.query("SELECT pg_backend_pid()").first).decode(Int32.self)
    let administrator = PostgresTestDatabase(connections: 1)
    let ended = try #require(try await administrator.query("SELECT pg_terminate_backend(\(pid))").first).decode(Bool.self)
    #expect(ended)
    // The pool hands out the ended connection until it notices: wait for a new session, which
    // has nothing prepared.
    var opened = false
    for _ in 0..<100 where !opened {
      opened = (try? await database.query("SELECT 1")) != nil
      if !opened { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(opened)
    #expect(try await preparedCount() == 0)
    try await cycle(store, id: id, from: 3)
    #expect(try await preparedCount() > 0)
  }
}

extension PostgresPreparedStatementTests {
  @Test("A connection keeps at most 64 of a store's statements, the least recently used deallocated first")
  func leastRecentlyUsedDeallocated() async throws {
    try await database.prepare(StoreSwitch.self)
    let prepared = PostgresPreparedStatements()
    let capacity = prepared.capacity
    var sums: [Int] = []
    // Statement 0 is used again after the first 64: then statement 1 is the least recently used.
    // The seventh displaced statement's deallocation goes ahead of the last send (0 again).
    for number in Array(0..<capacity) + [0] + Array(capacity..<(capacity + 6)) + [0] {
      sums.append(try await select(number, prepared))
    }
    #expect(sums == (Array(0..<capacity) + [0] + Array(capacity..<(capacity + 6)) + [0]).map { 2 * $0 })
    let names = try await database.query("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql").map {
      try $0.decode(String.self)
    }
    #expect(names.count == capacity)
    #expect(names.contains { $0.hasSuffix("+ 0") })
    #expect(!names.contains { $0.hasSuffix("+ 1") })
  }

  @Test("Strings reach the server unchanged as binds of a prepared statement, whatever quotes, dollars or backslashes they hold")
  func stringLiterals() async throws {
    try await database.prepare(StoreSwitch.self)
    let prepared = PostgresPreparedStatements()
    let strings = [
      "plain", "it's", "a$sm", "$sm$", "x$sm$y$sm1$", "$sm", "sm$", "\\'; DROP TABLE store_switches; --", "é\u{301}", "",
    ]
    for string in strings {
      var statement = PostgresStatement()
      statement.sql = "SELECT \(statement.bind(string)), \(statement.bind([string, "b"]))"
      let query = statement
      let rows = try await database.client.withConnection { connection in
        try await connection.rows(of: query, preparedIn: prepared, autocommit: true, logger: PostgresStepLogger.logger)
      }
      let (text, array) = try rows[0].decode((String, [String]).self)
      #expect(text == string)
      #expect(array == [string, "b"])
    }
  }

  /// `$1 + number` with `number` bound, through the store's send path: one statement text per number.
  func select(_ number: Int, _ prepared: PostgresPreparedStatements) async throws -> Int {
    var statement = PostgresStatement()
    statement.sql = "SELECT \(statement.bind(Int64(number))) + \(number)"
    let query = statement
    let rows = try await database.client.withConnection { connection in
      try await connection.rows(of: query, preparedIn: prepared, autocommit: true, logger: PostgresStepLogger.logger)
    }
    return try rows[0].decode(Int.self)
  }

  /// ``cycle(_:id:)`` on a row at `version`, back in "off".
  func cycle(_ store: PostgresStateMachineStore<StoreSwitch>, id: Int, from version: Int64) async throws {
    #expect(try await store.fire("flip", on: id).version == version + 1)
    #expect(try await store.fire("jam", on: id).version == version + 2)
    #expect(try await store.fire("fix", on: id).version == version + 3)
    let history = try await store.history(of: id)
    #expect(history.map(\.version) == Array(1...(version + 3)))
  }
}
#endif
