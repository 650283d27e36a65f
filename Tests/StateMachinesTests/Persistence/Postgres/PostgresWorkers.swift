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

  /// The race invariants of Persistence §9 that SQL checks on a machine's rows (P2, P3, P4): Σ sm_version
  /// = count(sm_transitions); per row, versions 1…n without gaps; each from_state is its
  /// predecessor's to_state; the row's state is its last to_state. Returns the count of transitions
  /// and the violations found (empty when all hold). `table` names the machine, whose rows start
  /// in `initial`.
  func raceInvariants(table: String = "rings", initial: String = "s0") async throws -> (transitions: Int, violations: [String]) {
    let transitions = try await int("SELECT COUNT(*) FROM sm_transitions WHERE machine = '\(table)'") ?? -1
    var violations: [String] = []
    let versions = try await int("SELECT SUM(sm_version)::bigint FROM \(table)") ?? -1
    if versions != transitions { violations.append("Σ sm_version \(versions) ≠ \(transitions) transitions") }
    let gaps = try await int(
      """
      SELECT COUNT(*) FROM \(table) r LEFT JOIN (SELECT entity_id, COUNT(*) AS n, MIN(version) AS low,
        MAX(version) AS high FROM sm_transitions WHERE machine = '\(table)' GROUP BY entity_id) t
        ON t.entity_id = CAST(r.id AS text)
      WHERE COALESCE(t.n, 0) <> r.sm_version OR COALESCE(t.high, 0) <> r.sm_version OR (t.n > 0 AND t.low <> 1)
      """)
    if gaps != 0 { violations.append("\(gaps ?? -1) rows whose versions are not 1…sm_version") }
    let broken = try await int(
      """
      SELECT COUNT(*) FROM (SELECT from_state, LAG(to_state, 1, '\(initial)')
        OVER (PARTITION BY entity_id ORDER BY version) AS previous FROM sm_transitions WHERE machine = '\(table)') t
      WHERE from_state <> previous
      """)
    if broken != 0 { violations.append("\(broken ?? -1) transitions from a stale state") }
    let wrongStates = try await int(
      """
      SELECT COUNT(*) FROM \(table) r WHERE r.state <> COALESCE((SELECT to_state FROM sm_transitions t
        WHERE t.machine = '\(table)' AND t.entity_id = CAST(r.id AS text) ORDER BY version DESC LIMIT 1), '\(initial)')
      """)
    if wrongStates != 0 { violations.append("\(wrongStates ?? -1) rows whose state is not their last to_state") }
    return (transitions, violations)
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
