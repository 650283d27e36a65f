// The fast path of Persistence §6: a fire by id whose step runs no code is written from the
// row's machine columns alone; the object is not stepped and its own columns are not re-encoded
// or rewritten (they cannot have changed: no code ran).

#if SQLite
import Foundation
import GRDB
import StateMachines

extension SQLiteStepEngine {
  /// Writes a pure step in the open transaction, with the same rows as the full path's `write`:
  /// one history row (P2) and the machine columns by compare-and-set on the version (P4); no
  /// deadline row changes (P8: the step arms and leaves no timed state). `model` is the object
  /// decoded from the row as read in this transaction; it gets the step's machine columns.
  ///
  /// It needs no savepoint inside the application's transaction (P1: nothing of a failed step
  /// stays): the history `INSERT` goes first and, being one statement, writes all or nothing;
  /// should the `UPDATE` then fail or change no row (it cannot change none: the row was just
  /// read in this transaction, which holds the write lock from its first write on), the history
  /// row is deleted again before the error is thrown. Both statements are built once
  /// (Persistence §6).
  func writePure(_ db: Database, _ step: StoreStep, _ model: Model, _ key: String, requestID: UUID?)
    throws(StateMachineStoreError) -> Written
  {
    try definition.load(step.after, into: model, id: key)
    let now = clock.now.storeMilliseconds
    let history = configuration.history ? try StoreStepRows.history(of: step) : []
    try insertHistory(db, history, key, cause: .event, requestID: requestID, dueAt: nil, now: now)
    let inserted = history.isEmpty ? nil : db.lastInsertedRowID
    do throws(StateMachineStoreError) {
      try SQLiteStoreFailure.database(key) {
        try db.cached(
          table.updateMachineSQL, try table.updateMachineArguments(step.after, key: key, version: step.before.version))
      }
      try checkWritten(db, step, key)
    } catch {
      if let inserted { try? db.execute(sql: "DELETE FROM sm_transitions WHERE rowid = ?", arguments: [inserted]) }
      throw error
    }
    crashPoint(.afterWrite)
    return Written(step, model)
  }
}
#endif
