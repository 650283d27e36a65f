// The fast path of PERSISTENCE.md §6: a fire by id whose step runs no code is written from the
// row's machine columns alone; the object is not stepped and its own columns are not re-encoded
// or rewritten (they cannot have changed: no code ran).

#if SQLite
import Foundation
import GRDB
import StateMachines

extension SQLiteStepEngine {
  /// Writes a pure step in the open transaction, with the same rows as ``write(_:_:_:_:cause:requestID:dueAt:)``:
  /// the machine columns by compare-and-set on the version (P4), one history row (P2); no
  /// deadline row changes (P8: the step arms and leaves no timed state). The result's object is
  /// decoded from `row`, the row as it was read under the write lock, with the step's machine
  /// columns.
  func writePure(_ db: Database, _ step: StoreStep, _ row: Row, _ key: String, requestID: UUID?)
    throws(StateMachineStoreError) -> Written
  {
    let now = clock.now.storeMilliseconds
    try SQLiteStoreFailure.database(key) {
      let filter = table.row(key)
      try db.cached(
        "UPDATE \(table.quotedName) SET state = ?, sm_version = ?, sm_terminated = ?, sm_history = ? "
          + "WHERE \(filter.sql) AND sm_version = ?",
        StatementArguments(try SQLiteMachineTable.values(step.after)) + filter.arguments + [step.before.version])
    }
    try checkWritten(db, step, key)
    try insertHistory(db, step, key, cause: .event, requestID: requestID, dueAt: nil, now: now)
    crashPoint(.afterWrite)
    let model = try SQLiteStoreFailure.database(key) { try mapping.decode(row) }
    try definition.load(step.after, into: model, id: key)
    let fired = Fired(
      model: model, from: step.before.state, to: step.after.state, version: step.after.version,
      transitions: step.transitions)
    return Written(step: step, fired: fired)
  }
}
#endif
