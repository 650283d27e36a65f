// The hand-written baselines of the SQLite store benchmark: what an application would write with
// GRDB alone, with the same GRDB calls the store makes (`execute(sql:arguments:)`, `Row.fetchOne`),
// on the same table shape, in the same kind of transaction (GRDB's `write`: BEGIN IMMEDIATE …
// COMMIT).

import Foundation
import GRDB

struct BaselineFailure: Error, CustomStringConvertible {
  let description: String
}

/// B0: one compare-and-set UPDATE per transaction. The application already knows the row's state
/// and version (from its previous write), so it reads nothing and writes no history.
func compareAndSet(_ db: Database, id: Int, from state: String, version: Int64) throws {
  try db.execute(
    sql: "UPDATE toggles SET state = ?, sm_version = ? WHERE id = ? AND sm_version = ?",
    arguments: [state == "off" ? "on" : "off", version + 1, id, version])
  guard db.changesCount == 1 else { throw BaselineFailure(description: "B0: row \(id) is not at version \(version)") }
}

/// B1: what a store step does at least, by hand: read the row, decide the transition, write it by
/// compare-and-set, insert its history row.
func selectCompareAndSetHistory(_ db: Database, id: Int) throws {
  guard let row = try Row.fetchOne(db, sql: "SELECT state, sm_version FROM toggles WHERE id = ?", arguments: [id]) else {
    throw BaselineFailure(description: "B1: no row \(id)")
  }
  let from: String = row["state"]
  let version: Int64 = row["sm_version"]
  let to = from == "off" ? "on" : "off"
  try db.execute(
    sql: "UPDATE toggles SET state = ?, sm_version = ? WHERE id = ? AND sm_version = ?",
    arguments: [to, version + 1, id, version])
  guard db.changesCount == 1 else { throw BaselineFailure(description: "B1: row \(id) moved on") }
  try db.execute(
    sql: "INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, at) "
      + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    arguments: [
      "toggles", String(id), version + 1, "flip", from, to, "event", Int64((Date().timeIntervalSince1970 * 1000).rounded()),
    ])
}

/// B1c: B1 with statements compiled once per connection (GRDB's `cachedStatement`), the most a
/// hand-written transaction can save on SQL compilation. Not a goal's baseline: the store compiles
/// each statement per call, as B1 does. B4 runs it 100 times in one transaction; with `history`
/// ``unindexedHistory`` (B1u, B4u), the history row goes to a table without P2's unique index.
func selectCompareAndSetHistoryCached(_ db: Database, id: Int, history: String = "sm_transitions") throws {
  let select = try db.cachedStatement(sql: "SELECT state, sm_version FROM toggles WHERE id = ?")
  guard let row = try Row.fetchOne(select, arguments: [id]) else { throw BaselineFailure(description: "B1c: no row \(id)") }
  let from: String = row["state"]
  let version: Int64 = row["sm_version"]
  let to = from == "off" ? "on" : "off"
  try db.cachedStatement(sql: "UPDATE toggles SET state = ?, sm_version = ? WHERE id = ? AND sm_version = ?")
    .execute(arguments: [to, version + 1, id, version])
  guard db.changesCount == 1 else { throw BaselineFailure(description: "B1c: row \(id) moved on") }
  try db.cachedStatement(
    sql: "INSERT INTO \(history) (machine, entity_id, version, event, from_state, to_state, cause, at) "
      + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
  ).execute(arguments: [
    "toggles", String(id), version + 1, "flip", from, to, "event", Int64((Date().timeIntervalSince1970 * 1000).rounded()),
  ])
}

/// A copy of `sm_transitions` without its `UNIQUE (machine, entity_id, version)` (P2) and its
/// request index: B1u and B4u measure what that index costs a batch, whose history rows of
/// 100 entities land on as many index pages, where one entity's land on the same few.
let unindexedHistory = "bench_unindexed_transitions"

/// Creates ``unindexedHistory``.
func createUnindexedHistory(_ db: Database) throws {
  try db.execute(sql: """
    CREATE TABLE \(unindexedHistory) (id INTEGER PRIMARY KEY AUTOINCREMENT, machine TEXT NOT NULL,
      entity_id TEXT NOT NULL, version INTEGER NOT NULL, event TEXT NOT NULL, from_state TEXT NOT NULL,
      to_state TEXT NOT NULL, cause TEXT NOT NULL DEFAULT 'event', payload TEXT, request_id TEXT, due_at INTEGER,
      process TEXT, at INTEGER NOT NULL)
    """)
}

/// B0's knowledge of its row: the state and version it last wrote.
final class KnownRow: @unchecked Sendable {
  var state = "off"
  var version: Int64 = 0
}
