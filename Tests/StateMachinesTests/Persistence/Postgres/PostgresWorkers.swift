// What the PostgreSQL multi-process tests share (Persistence §9): a schema of their own on the
// test server, `sm-store-worker` arguments that point at it, and SQL reads from the test's own
// connection, as another application server would read.

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachinesPostgres

/// One test's schema, the workers' way into it, and reads of it.
struct PostgresWorkerSchema {
  let database: PostgresTestDatabase
  /// The `--db` of the workers.
  let workerURL: String

  /// A schema of its own on the test server, which the workers reach directly.
  init() {
    database = PostgresTestDatabase()
    workerURL = postgresTestURL ?? ""
  }

  private init(database: PostgresTestDatabase, workerURL: String) {
    self.database = database
    self.workerURL = workerURL
  }

  /// A new database of its own on the test server, which the workers reach through the pooler
  /// (STATEMACHINES_PGBOUNCER_URL), with `pgbouncer=true` in their URL when `pgbouncer` says so;
  /// the test's own reads go to the server directly. The schema is `public`: PgBouncer refuses
  /// a `search_path` startup parameter. `name` picks the database (the pooler's configuration
  /// can give one a pool of its own); by default it is new.
  static func pooled(pgbouncer: Bool, name: String? = nil) async throws -> PostgresWorkerSchema {
    guard let pooler = postgresPoolerURL, var poolerURL = URLComponents(string: pooler) else {
      throw PostgresTestFailure("needs STATEMACHINES_PGBOUNCER_URL")
    }
    let database = try await PostgresTestDatabase.created(name)
    poolerURL.path = "/\(database.name)"
    return PostgresWorkerSchema(database: database.database, workerURL: poolerURL.string ?? "").pgbouncer(pgbouncer)
  }

  /// The same database, with `pgbouncer=true` in the workers' URL or without it.
  func pgbouncer(_ on: Bool) -> PostgresWorkerSchema {
    guard var url = URLComponents(string: workerURL) else { return self }
    url.queryItems = on ? [URLQueryItem(name: "pgbouncer", value: "true")] : nil
    return PostgresWorkerSchema(database: database, workerURL: url.string ?? workerURL)
  }

  /// A client of this database through the pooler, as a worker reaches it (no `search_path`).
  func poolerDatabase() -> PostgresTestDatabase {
    PostgresTestDatabase(url: pgbouncer(false).workerURL, schema: "public", connections: 1)
  }

  /// `--db URL --schema NAME` (and `more`), after the worker's mode.
  func arguments(_ mode: String, _ more: [String] = []) -> [String] {
    [mode, "--db", workerURL, "--schema", database.schema] + more
  }

  /// The rows `sql` selects.
  func rows(_ sql: String) async throws -> [PostgresRow] {
    try await database.query(sql)
  }

  /// The one integer `sql` selects (cast it to `bigint`: SUM is `numeric`).
  func int(_ sql: String) async throws -> Int? {
    guard let row = try await rows(sql).first else { return nil }
    return try row.decode(Int?.self)
  }

  /// The first column of every row, as text.
  func strings(_ sql: String) async throws -> [String] {
    try await rows(sql).map { try $0.decode(String.self) }
  }

  /// The state of ring `id`, its history and its outbox messages, as `s1@1`, `s0->s1@1`, `1@1`.
  func ring(_ id: Int) async throws -> (row: String?, history: [String], outbox: [String]) {
    (
      try await strings("SELECT state || '@' || sm_version FROM rings WHERE id = \(id)").first,
      try await strings(
        "SELECT from_state || '->' || to_state || '@' || version FROM sm_transitions WHERE entity_id = '\(id)' ORDER BY version"),
      try await strings("SELECT entity_id || '@' || version FROM sm_outbox WHERE entity_id = '\(id)' ORDER BY id")
    )
  }

  /// The race invariants of Persistence §9 on a machine's rows (``StoreRaceInvariants``): the
  /// count of transitions and the violations found (empty when all hold).
  func raceInvariants(table: String = "rings", initial: String = "s0") async throws -> (transitions: Int, violations: [String]) {
    try await StoreRaceInvariants.violations(table: table, initial: initial) { sql in try await int("SELECT (\(sql))::bigint") }
  }

  /// The `entity version` keys of every transition of the rings.
  func transitionKeys() async throws -> Set<String> {
    Set(try await strings("SELECT entity_id || ' ' || version FROM sm_transitions WHERE machine = 'rings'"))
  }
}

/// The lines of a ledger the `deliver` workers append `id entity version` to, split in fields.
func ledgerLines(_ path: String) throws -> [[String]] {
  guard FileManager.default.fileExists(atPath: path) else { return [] }
  return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
    $0.split(separator: " ").map(String.init)
  }
}
#endif
