// Durable deadlines on PostgreSQL (Persistence §7): a scheduler pass locks the entities of
// due deadlines with `FOR UPDATE OF <entity> SKIP LOCKED`, so passes in any number of processes
// never wait on each other, and consumes each deadline with `DELETE … RETURNING` in a savepoint,
// so each fires exactly once (P9, P10); a deadline that cannot fire is consumed, retried after a
// backoff, or parked (P11, P12).

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

extension PostgresStepEngine {
  /// Arms a deadline that belongs to no state (P8), under the row's lock.
  func post(_ event: String, to key: String, after delay: Duration) async throws(StateMachineStoreError) {
    try await transaction(key: key) { connection throws(StateMachineStoreError) in
      guard let row = try await self.lockRow(connection, key) else { throw .notFound(id: key) }
      let machine = try self.machineState(row, key)
      var statement = PostgresStatement()
      let due = self.plus(self.now(&statement), delay, &statement)
      statement.sql = """
        INSERT INTO sm_deadlines (machine, entity_id, state, event, armed_version, due_at)
        VALUES (\(statement.bind(self.table.machine)), \(statement.bind(key)), NULL, \(statement.bind(event)),
          \(statement.bind(machine.version)), \(due))
        """
      try await self.run(connection, statement, key: key)
      try await self.wakeSchedulers(connection, armed: [delay], messages: 0, key: key)
    }
  }

  /// One scheduler pass: up to `limit` due deadlines, oldest first, whose rows no other
  /// transaction holds; returns how many were consumed (fired a transition, or refused by the
  /// machine).
  func fireDueTimeouts(limit: Int) async throws(StateMachineStoreError) -> Int {
    let written = try await transaction(key: "") { connection throws(StateMachineStoreError) -> [Written?] in
      let idType = try await self.idType(connection)
      var select = PostgresStatement()
      let join =
        self.table.isShared
        ? "o.machine = d.machine AND o.entity_id = d.entity_id"
        : "o.\(self.table.quotedID) = CAST(d.entity_id AS \(idType))"
      select.sql = """
        SELECT d.id FROM sm_deadlines d JOIN \(self.table.quotedName) o ON \(join)
         WHERE d.machine = \(select.bind(self.table.machine)) AND NOT d.parked AND d.due_at <= \(self.now(&select))
         ORDER BY d.due_at, d.id LIMIT \(select.bind(max(0, limit))) FOR UPDATE OF o SKIP LOCKED
        """
      let rows = try await self.run(connection, select, key: "")
      let due = try PostgresStoreFailure.sync("") { try rows.map { try $0.decode(Int64.self) } }
      var consumed: [Written?] = []
      for id in due {
        if let outcome = try await self.fireDeadline(connection, id) { consumed.append(outcome.written) }
      }
      return consumed
    }
    for step in written { step?.committed() }
    return written.count
  }

  /// The outcome of one consumed deadline (the core's, as for every SQL store).
  typealias Consumed = StoreDeadlineFiring.Consumed<Model>

  /// Consumes and fires one deadline in a savepoint (P10, P11); `nil` when it was gone (a
  /// concurrent exit deleted it: the `DELETE` is a new statement after the row lock, so it sees
  /// that commit) or was put back to be retried or parked.
  private func fireDeadline(_ connection: PostgresConnection, _ id: Int64) async throws(StateMachineStoreError)
    -> Consumed?
  {
    try await run(connection, "SAVEPOINT sm_deadline", key: "")
    let outcome: Result<Consumed?, StateMachineStoreError>
    var entity = ""
    do {
      var delete = PostgresStatement()
      delete.sql = "DELETE FROM sm_deadlines WHERE id = \(delete.bind(id)) RETURNING entity_id, event, due_at"
      let rows = try await run(connection, delete, key: "")
      if let row = rows.first {
        let (key, event, dueAt) = try PostgresStoreFailure.sync("") { try row.decode((String, String, Date).self) }
        entity = key
        outcome = .success(try await fire(connection, event, key: key, dueAt: dueAt))
      } else {
        outcome = .success(nil)
      }
    } catch {
      outcome = .failure(error)
    }
    switch outcome {
    case .success(let consumed):
      try await run(connection, "RELEASE SAVEPOINT sm_deadline", key: entity)
      return consumed
    case .failure(let error):
      try await run(connection, "ROLLBACK TO SAVEPOINT sm_deadline", key: entity)
      try await run(connection, "RELEASE SAVEPOINT sm_deadline", key: entity)
      try await retry(connection, id, after: error)
      return nil
    }
  }

  /// Fires a consumed deadline's event on its row, which the pass holds.
  private func fire(_ connection: PostgresConnection, _ event: String, key: String, dueAt: Date)
    async throws(StateMachineStoreError) -> Consumed
  {
    guard let row = try await lockRow(connection, key) else { return Consumed(written: nil) }
    var loaded: PostgresBindings?
    let taken = try StoreDeadlineFiring.step(definition, event) { () throws(StateMachineStoreError) in
      let (model, columns) = try lockedObject(row, key)
      loaded = columns
      return model
    }
    guard let (step, model) = taken else { return Consumed(written: nil) }
    return Consumed(
      written: try await write(connection, step, model, key, cause: .timeout, requestID: nil, dueAt: dueAt, loaded: loaded))
  }

  /// P11: a deadline whose step threw gets one more attempt after the backoff, or is parked once
  /// it failed too often; one whose row cannot be loaded or whose event is gone is parked (P12).
  private func retry(_ connection: PostgresConnection, _ id: Int64, after error: StateMachineStoreError)
    async throws(StateMachineStoreError)
  {
    let parkNow = try StoreDeadlineFiring.parksAtOnce(after: error)
    var statement = PostgresStatement()
    let due = plus(now(&statement), configuration.backoff, &statement)
    statement.sql = """
      UPDATE sm_deadlines SET attempts = attempts + 1, last_error = \(statement.bind("\(error)")), due_at = \(due),
        parked = (\(statement.bind(parkNow)) OR attempts + 1 >= \(statement.bind(configuration.maxAttempts)))
       WHERE id = \(statement.bind(id))
      """
    try await run(connection, statement, key: "")
  }

  /// Moves every row stored in `old` (a state the definition may no longer have) to `new`, in one
  /// transaction: a history row each with cause `migration`, the row's state deadlines replaced
  /// by the new configuration's (P12). Returns how many rows moved.
  func migrate(from old: String, to new: String) async throws(StateMachineStoreError) -> Int {
    let written = try await transaction(key: "") { connection throws(StateMachineStoreError) -> [Written] in
      var select = PostgresStatement()
      let all = self.table.allRows(&select)
      select.sql = """
        SELECT \(self.table.selectList(self.mapping.columns)) FROM \(self.table.quotedName)
         WHERE \(all) AND state = \(select.bind(old)) ORDER BY \(self.table.quotedID) FOR UPDATE
        """
      let rows = try await self.run(connection, select, key: "")
      let offset = self.mapping.columns.count
      var written: [Written] = []
      for row in rows {
        let (key, model, stored) = try PostgresStoreFailure.sync("") {
          (
            try PostgresMachineTable.key(row, offset: offset), try self.mapping.decode(row),
            try PostgresMachineTable.machineState(row, offset: offset)
          )
        }
        let step = try self.definition.storeMigrate(stored, to: new, on: model)
        var delete = PostgresStatement()
        delete.sql = """
          DELETE FROM sm_deadlines WHERE machine = \(delete.bind(self.table.machine))
             AND entity_id = \(delete.bind(key)) AND state IS NOT NULL
          """
        try await self.run(connection, delete, key: key)
        written.append(try await self.write(connection, step, model, key, cause: .migration, requestID: nil, dueAt: nil))
      }
      return written
    }
    for step in written { step.committed() }
    return written.count
  }
}
#endif
