// Writing a step (P1, P2, P4, P8, P16) in one statement: the compare-and-set UPDATE of the row
// is a data-modifying CTE, and the history, deadline and outbox rows are written by CTEs that
// read its result, so they run after it and only when it wrote. One round trip instead of one per
// kind of row, in the same transaction as before.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

extension PostgresStepEngine {
  /// Writes a step in the open transaction, in one statement: the row by compare-and-set on the
  /// version, `RETURNING` the new one (P4; zero rows is a conflict, and nothing else is
  /// written), with the object's own columns; a history row per microstep (P2); the exited
  /// states' deadlines deleted and the armed ones inserted (P8); the outbox messages (P16).
  ///
  /// Every part but the UPDATE reads `moved`, the UPDATE's result, so PostgreSQL runs the UPDATE
  /// (which takes the row's lock, when the step did not hold it already) before any of them:
  /// every path still locks the entity row before its deadline and outbox rows (Persistence §6),
  /// and a CAS that wrote nothing writes no other row either.
  ///
  /// `loaded` is the object's own columns as the step's transaction read them from the locked
  /// row: when the step left them as they were, the UPDATE sets the machine columns alone, and
  /// the statement, all of whose binds are then the store's, is prepared (Many application
  /// servers, prepared statements).
  func write(
    _ connection: PostgresConnection, _ step: StoreStep, _ model: Model, _ key: String, cause: StoredTransition.Cause,
    requestID: UUID?, dueAt: Date?, loaded: PostgresBindings? = nil
  ) async throws(StateMachineStoreError) -> Written {
    let binds = try PostgresStoreFailure.sync(key) { try mapping.bindings(model) }
    let rows = try StoreStepRows(step, model: model, key: key, configuration: configuration)
    let idType = try await idType(connection)
    let ownColumnsChanged = binds != loaded
    var statement = ownColumnsChanged ? PostgresStatement(applicationBinds: binds) : PostgresStatement()
    var assignments = mapping.columns.enumerated().filter { ownColumnsChanged && $0.element != table.idColumn }.map {
      "\($0.element.quotedIdentifier) = $\($0.offset + 1)"
    }
    let machineValues = try PostgresStoreFailure.sync(key) { try PostgresMachineTable.bind(step.after, &statement) }
    assignments += zip(["state", "sm_version", "sm_terminated", "sm_history"], machineValues).map { "\($0) = \($1)" }
    let filter = table.row(key, idType: idType, &statement)
    var parts = [
      """
      moved AS (
        UPDATE \(table.quotedName) SET \(assignments.joined(separator: ", "))
         WHERE \(filter) AND sm_version = \(statement.bind(step.before.version)) RETURNING sm_version)
      """
    ]
    if !rows.history.isEmpty || !rows.exited.isEmpty || !rows.armed.isEmpty || !rows.messages.isEmpty {
      let row = (machine: statement.bind(table.machine), entity: statement.bind(key))
      if !rows.history.isEmpty {
        parts.append(historyRows(rows.history, row, cause: cause, requestID: requestID, dueAt: dueAt, &statement))
      }
      if !rows.exited.isEmpty {
        parts.append(
          """
          disarmed AS (
            DELETE FROM sm_deadlines WHERE machine = \(row.machine) AND entity_id = \(row.entity)
               AND state = ANY(\(statement.bind(rows.exited))) AND EXISTS (SELECT 1 FROM moved))
          """)
      }
      if !rows.armed.isEmpty {
        let armed = deadlineRows(step, row, &statement, from: "moved")
        parts.append("armed AS (\(armed))")
      }
      if !rows.messages.isEmpty {
        parts.append(outboxRows(rows.messages, row, &statement))
      }
    }
    statement.sql = "WITH " + parts.joined(separator: ",\n") + "\nSELECT sm_version FROM moved"
    guard try await run(connection, statement, key: key).count == 1 else {
      guard let current = try await current(connection, key) else { throw .notFound(id: key) }
      throw .conflict(
        id: key, expectedVersion: step.before.version, currentVersion: current.version, currentState: current.state)
    }
    try await wakeSchedulers(connection, armed: rows.armed.map(\.delay), messages: rows.messages.count, key: key)
    crashPoint(.afterWrite)
    return Written(step, model)
  }

  /// The CTE of the step's history rows (P2; ``StoreStepRows``), each with the step's request id
  /// (P6).
  private func historyRows(
    _ history: [StoreStepRows.History], _ row: (machine: String, entity: String), cause: StoredTransition.Cause,
    requestID: UUID?, dueAt: Date?, _ statement: inout PostgresStatement
  ) -> String {
    let at = clock.isDatabase ? "clock_timestamp()" : statement.bind(clock.now)
    let causeValue = statement.bind(cause.rawValue)
    let request = "CAST(\(statement.bind(requestID)) AS uuid)"
    let due = "CAST(\(statement.bind(dueAt)) AS timestamptz)"
    let rows = history.map { entry in
      "(\(row.machine), \(row.entity), \(statement.bind(entry.version)), \(statement.bind(entry.event)), "
        + "\(statement.bind(entry.from)), \(statement.bind(entry.to)), \(causeValue), "
        + "CAST(\(statement.bind(entry.payload)) AS json), \(request), \(due), \(at))"
    }
    return """
      history AS (
        INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, payload,
          request_id, due_at, at)
        SELECT h.* FROM moved, (VALUES \(rows.joined(separator: ", "))) h)
      """
  }

  /// The CTE of the step's outbox messages (P16).
  private func outboxRows(
    _ messages: [OutboxMessage], _ row: (machine: String, entity: String), _ statement: inout PostgresStatement
  ) -> String {
    let time = now(&statement)
    let rows = messages.map { message in
      "(\(row.machine), \(row.entity), \(statement.bind(message.version)), \(statement.bind(message.topic)), "
        + "CAST(\(statement.bind(String(decoding: message.payload, as: UTF8.self))) AS json), \(time), \(time))"
    }
    return """
      sent AS (
        INSERT INTO sm_outbox (machine, entity_id, version, topic, payload, available_at, created_at)
        SELECT o.* FROM moved, (VALUES \(rows.joined(separator: ", "))) o)
      """
  }

  /// The INSERT of the deadline rows a step armed, due on the store's clock (P8, P15); with
  /// `from`, one per row of that relation (the write's `moved`: only when the row was written).
  func deadlineRows(
    _ step: StoreStep, _ row: (machine: String, entity: String), _ statement: inout PostgresStatement,
    from relation: String? = nil
  ) -> String {
    let time = self.now(&statement)
    let version = statement.bind(step.after.version)
    let rows = step.armed.map { timeout in
      "(\(row.machine), \(row.entity), \(statement.bind(timeout.state)), \(statement.bind(timeout.event)), \(version), "
        + "\(plus(time, timeout.delay, &statement)))"
    }
    let source =
      relation.map { "SELECT a.* FROM \($0), (VALUES \(rows.joined(separator: ", "))) a" }
      ?? "VALUES \(rows.joined(separator: ", "))"
    return "INSERT INTO sm_deadlines (machine, entity_id, state, event, armed_version, due_at) " + source
  }

  /// Inserts the deadline rows a new row armed (P8).
  func arm(_ connection: PostgresConnection, _ step: StoreStep, _ key: String) async throws(StateMachineStoreError) {
    guard !step.armed.isEmpty else { return }
    var statement = PostgresStatement()
    let row = (machine: statement.bind(table.machine), entity: statement.bind(key))
    let sql = deadlineRows(step, row, &statement)
    statement.sql = sql
    try await run(connection, statement, key: key)
  }

}
#endif
