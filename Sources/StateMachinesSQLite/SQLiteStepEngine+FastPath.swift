// The fast path of PERSISTENCE.md §6: a fire by id whose step runs no code is written from the
// row's machine columns alone; the object is not stepped and its own columns are not re-encoded
// or rewritten (they cannot have changed: no code ran).

#if SQLite
import Foundation
import GRDB
import StateMachines

extension SQLiteStepEngine {
  /// Writes a pure step in the open transaction, with the same rows as the full path's `write`:
  /// one history row (P2) and the machine columns by compare-and-set on the version (P4); no
  /// deadline row changes (P8: the step arms and leaves no timed state). The result's object is
  /// decoded from `row`, the row as read in this transaction, with the step's machine columns.
  ///
  /// It needs no savepoint inside the application's transaction (P1: nothing of a failed step
  /// stays): the history `INSERT` goes first and, being one statement, writes all or nothing;
  /// should the `UPDATE` then fail or change no row (it cannot change none: the row was just
  /// read in this transaction, which holds the write lock from its first write on), the history
  /// row is deleted again before the error is thrown.
  func writePure(_ db: Database, _ step: StoreStep, _ row: Row, _ key: String, requestID: UUID?)
    throws(StateMachineStoreError) -> Written
  {
    // The object first: nothing is written when the row does not decode.
    let model = try SQLiteStoreFailure.database(key) { try mapping.decode(row) }
    try definition.load(step.after, into: model, id: key)
    let now = clock.now.storeMilliseconds
    try insertHistory(db, step, key, cause: .event, requestID: requestID, dueAt: nil, now: now)
    let history = configuration.history ? db.lastInsertedRowID : nil
    do throws(StateMachineStoreError) {
      try SQLiteStoreFailure.database(key) {
        let filter = table.row(key)
        try db.cached(
          "UPDATE \(table.quotedName) SET state = ?, sm_version = ?, sm_terminated = ?, sm_history = ? "
            + "WHERE \(filter.sql) AND sm_version = ?",
          StatementArguments(try SQLiteMachineTable.values(step.after)) + filter.arguments + [step.before.version])
      }
      try checkWritten(db, step, key)
    } catch {
      if let history { try? db.execute(sql: "DELETE FROM sm_transitions WHERE rowid = ?", arguments: [history]) }
      throw error
    }
    crashPoint(.afterWrite)
    let fired = Fired(
      model: model, from: step.before.state, to: step.after.state, version: step.after.version,
      transitions: step.transitions)
    return Written(step: step, fired: fired)
  }
}
#endif
