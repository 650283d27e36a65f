// Durable deadlines on SQLite (Persistence §7): a scheduler pass is one `BEGIN IMMEDIATE`
// transaction, so passes in any number of processes are serialised by SQLite's write lock and
// each due deadline is consumed and fired exactly once (P9, P10); a deadline that cannot fire is
// consumed, retried with a backoff, or parked (P11, P12).

#if SQLite
import Foundation
import GRDB
import StateMachines

extension SQLiteStepEngine {
  /// Arms a deadline that belongs to no state (P8).
  func post(_ event: String, to key: String, after delay: Duration) async throws(StateMachineStoreError) {
    let due = (clock.now + delay.storeSeconds).storeMilliseconds
    try await transaction(key: key) { db throws(StateMachineStoreError) in
      guard let machine = try self.current(db, key) else { throw .notFound(id: key) }
      try SQLiteStoreFailure.database(key) {
        try db.execute(
          sql: "INSERT INTO sm_deadlines (machine, entity_id, state, event, armed_version, due_at) VALUES (?, ?, NULL, ?, ?, ?)",
          arguments: [self.table.machine, key, event, machine.version, due])
      }
    }
  }

  /// One scheduler pass: up to `limit` due deadlines, oldest first; returns how many were
  /// consumed (fired a transition, or refused by the machine).
  func fireDueTimeouts(limit: Int) async throws(StateMachineStoreError) -> Int {
    let now = clock.now
    let written = try await transaction(key: "") { db throws(StateMachineStoreError) -> [Written?] in
      let due = try SQLiteStoreFailure.database("") {
        try Int64.fetchAll(
          db,
          sql: "SELECT id FROM sm_deadlines WHERE machine = ? AND parked = 0 AND due_at <= ? ORDER BY due_at, id LIMIT ?",
          arguments: [self.table.machine, now.storeMilliseconds, max(0, limit)])
      }
      var consumed: [Written?] = []
      for id in due {
        if let outcome = try self.fireDeadline(db, id, now: now) { consumed.append(outcome.written) }
      }
      return consumed
    }
    for step in written { step?.committed() }
    return written.count
  }

  /// The outcome of one consumed deadline (the core's, as for every SQL store).
  typealias Consumed = StoreDeadlineFiring.Consumed<Model>

  /// Consumes and fires one deadline in a savepoint (P10, P11); `nil` when it was gone (a
  /// concurrent exit deleted it) or was put back to be retried or parked.
  private func fireDeadline(_ db: Database, _ id: Int64, now: Date) throws(StateMachineStoreError) -> Consumed? {
    try SQLiteStoreFailure.database("") { try db.execute(sql: "SAVEPOINT sm_deadline") }
    let outcome: Result<Consumed?, StateMachineStoreError>
    var entity = ""
    do throws(StateMachineStoreError) {
      let deadline = try SQLiteStoreFailure.database("") {
        try Row.fetchOne(db, sql: "DELETE FROM sm_deadlines WHERE id = ? RETURNING entity_id, event, due_at", arguments: [id])
      }
      if let deadline {
        entity = deadline["entity_id"]
        outcome = .success(
          try fire(db, deadline["event"], key: entity, dueAt: Date(storeMilliseconds: deadline["due_at"])))
      } else {
        outcome = .success(nil)
      }
    } catch {
      outcome = .failure(error)
    }
    switch outcome {
    case .success(let consumed):
      try SQLiteStoreFailure.database(entity) { try db.execute(sql: "RELEASE SAVEPOINT sm_deadline") }
      return consumed
    case .failure(let error):
      try SQLiteStoreFailure.database(entity) {
        try db.execute(sql: "ROLLBACK TO SAVEPOINT sm_deadline")
        try db.execute(sql: "RELEASE SAVEPOINT sm_deadline")
      }
      try retry(db, id, after: error, now: now)
      return nil
    }
  }

  /// Fires a consumed deadline's event on its row.
  private func fire(_ db: Database, _ event: String, key: String, dueAt: Date) throws(StateMachineStoreError)
    -> Consumed
  {
    guard let row = try fetchRow(db, key),
      let (step, model) = try StoreDeadlineFiring.step(definition, event, on: { () throws(StateMachineStoreError) in
        try fresh(row, key)
      })
    else { return Consumed(written: nil) }
    return Consumed(written: try write(db, step, model, key, cause: .timeout, requestID: nil, dueAt: dueAt))
  }

  /// P11: a deadline whose step threw gets one more attempt after the backoff, or is parked once
  /// it failed too often; one whose row cannot be loaded or whose event is gone is parked (P12).
  private func retry(_ db: Database, _ id: Int64, after error: StateMachineStoreError, now: Date)
    throws(StateMachineStoreError)
  {
    let parkNow = try StoreDeadlineFiring.parksAtOnce(after: error)
    try SQLiteStoreFailure.database("") {
      try db.execute(
        sql: "UPDATE sm_deadlines SET attempts = attempts + 1, last_error = ?, due_at = ?, "
          + "parked = (? OR attempts + 1 >= ?) WHERE id = ?",
        arguments: [
          "\(error)", (now + configuration.backoff.storeSeconds).storeMilliseconds, parkNow,
          configuration.maxAttempts, id,
        ])
    }
  }
}
#endif

#if SQLite
extension SQLiteStepEngine {
  /// Moves every row stored in `old` (a state the definition may no longer have) to `new`, in one
  /// transaction: a history row each with cause `migration`, the row's state deadlines replaced
  /// by the new configuration's (P12). Returns how many rows moved.
  func migrate(from old: String, to new: String) async throws(StateMachineStoreError) -> Int {
    let all = table.allRows
    let sql = "SELECT * FROM \(table.quotedName) WHERE \(all.sql) AND state = ?"
    let written = try await transaction(key: "") { db throws(StateMachineStoreError) -> [Written] in
      let rows = try SQLiteStoreFailure.database("") { try Row.fetchAll(db, sql: sql, arguments: all.arguments + [old]) }
      return try rows.map { row throws(StateMachineStoreError) -> Written in
        let key: String = self.table.isShared ? row["entity_id"] : try SQLiteStoreFailure.database("") {
          try String.fetchOne(db, sql: "SELECT CAST(? AS TEXT)", arguments: [row[self.table.idColumn] as DatabaseValue]) ?? ""
        }
        let (model, stored) = try SQLiteStoreFailure.database(key) {
          (try self.mapping.decode(row), try self.table.machineState(row))
        }
        let step = try self.definition.storeMigrate(stored, to: new, on: model)
        try SQLiteStoreFailure.database(key) {
          try db.execute(
            sql: "DELETE FROM sm_deadlines WHERE machine = ? AND entity_id = ? AND state IS NOT NULL",
            arguments: [self.table.machine, key])
        }
        return try self.write(db, step, model, key, cause: .migration, requestID: nil, dueAt: nil)
      }
    }
    for step in written { step.committed() }
    return written.count
  }
}
#endif
