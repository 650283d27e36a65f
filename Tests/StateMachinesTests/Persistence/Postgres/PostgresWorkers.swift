// What the PostgreSQL multi-process tests share (Persistence §9): a schema of their own on the
// test server, `sm-store-worker` arguments that point at it, and SQL reads from the test's own
// connection, as another application server would read.

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachinesPostgres

/// One test's schema, the workers' way into it, and reads of it.
struct PostgresWorkerSchema {
  let database = PostgresTestDatabase()

  /// `--db URL --schema NAME` (and `more`), after the worker's mode.
  func arguments(_ mode: String, _ more: [String] = []) -> [String] {
    [mode, "--db", postgresTestURL ?? "", "--schema", database.schema] + more
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
