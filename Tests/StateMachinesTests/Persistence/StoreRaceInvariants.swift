// The race invariants of Persistence §9 as SQL that both stores' databases run (SQLite and
// PostgreSQL read it alike), so that the multi-process tests of either store check the same rules.

#if SQLite || PostgreSQL
/// The per-machine invariants a race must leave (P2, P3, P4), each as SQL counting what breaks it.
enum StoreRaceInvariants {
  /// What each check guards, and the SQL that counts its violations, on the rows of `table` (the
  /// machine's name in the history), whose rows start in `initial`.
  static func checks(table: String, initial: String) -> [(rule: String, sql: String)] {
    [
      (
        "Σ sm_version = count(sm_transitions)",
        """
        SELECT ABS(COALESCE((SELECT SUM(sm_version) FROM \(table)), 0)
          - (SELECT COUNT(*) FROM sm_transitions WHERE machine = '\(table)'))
        """
      ),
      (
        "per row, versions 1…sm_version without gaps",
        """
        SELECT COUNT(*) FROM \(table) r LEFT JOIN (SELECT entity_id, COUNT(*) AS n, MIN(version) AS low,
          MAX(version) AS high FROM sm_transitions WHERE machine = '\(table)' GROUP BY entity_id) t
          ON t.entity_id = CAST(r.id AS TEXT)
        WHERE COALESCE(t.n, 0) <> r.sm_version OR COALESCE(t.high, 0) <> r.sm_version OR (t.n > 0 AND t.low <> 1)
        """
      ),
      (
        "each from_state is its predecessor's to_state (no transition from a stale state)",
        """
        SELECT COUNT(*) FROM (SELECT from_state, LAG(to_state, 1, '\(initial)')
          OVER (PARTITION BY entity_id ORDER BY version) AS previous FROM sm_transitions WHERE machine = '\(table)') t
        WHERE from_state <> previous
        """
      ),
      (
        "the row's state is its last to_state",
        """
        SELECT COUNT(*) FROM \(table) r WHERE r.state <> COALESCE((SELECT to_state FROM sm_transitions t
          WHERE t.machine = '\(table)' AND t.entity_id = CAST(r.id AS TEXT) ORDER BY version DESC LIMIT 1), '\(initial)')
        """
      ),
    ]
  }

  /// Runs the checks with `count` (the one integer a query selects) and returns the number of
  /// transitions and the violated rules with their counts (empty when all hold).
  static func violations(
    table: String, initial: String, count: (String) async throws -> Int?
  ) async throws -> (transitions: Int, violations: [String]) {
    let transitions = try await count("SELECT COUNT(*) FROM sm_transitions WHERE machine = '\(table)'") ?? -1
    var violations: [String] = []
    for check in checks(table: table, initial: initial) {
      let found = try await count(check.sql)
      if found != 0 { violations.append("\(check.rule): \(found.map(String.init) ?? "no answer")") }
    }
    return (transitions, violations)
  }
}
#endif
