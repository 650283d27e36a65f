// Firing an event on a row (P3, P4, P6) and writing a step (P1, P2, P8, P16), statement by
// statement as PERSISTENCE.md §6 lists them.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

extension PostgresStepEngine {
  /// Fires `event` on the row with `key` (P3), or, with `object`, on the caller's object provided
  /// the row is still at `expected` (P4), retrying as `options` say.
  func fire(
    _ event: String, key: String, payload: (any Encodable & Sendable)?, options: FireOptions, object: Model?
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    var expected: Int64?
    var copy: Model?
    if let object {
      // P4: the step runs on a copy of the caller's object (its own columns as the caller set
      // them), provided the row is still at the object's version.
      let machine = definition.storedState(of: object)
      copy = try await self.copy(object, key)
      try definition.load(machine, into: copy!, id: key)
      expected = machine.version
    }
    return try await options.reloadingOnConflict(expected: expected, object: copy) {
      expectedVersion, onObject throws(StateMachineStoreError) in
      let written = try await transaction(key: key, requestID: options.requestID) {
        connection throws(StateMachineStoreError) in
        try await self.step(
          connection, event, key: key, payload: payload, requestID: options.requestID,
          noWait: options.lock == .noWait, expected: expectedVersion, on: onObject)
      }
      written.step?.committed()
      return written.fired
    }
  }

  /// One fire inside the transaction. By id: lock the row (`FOR UPDATE`, P3), replay a recorded
  /// request id's outcome (P6), load a fresh object, run the step and write it. On an object:
  /// no lock, the write's compare-and-set decides (P4).
  func step(
    _ connection: PostgresConnection, _ event: String, key: String, payload: (any Encodable & Sendable)?,
    requestID: UUID?, noWait: Bool, expected: Int64?, on object: Model?
  ) async throws(StateMachineStoreError) -> Written {
    if let object, let expected {
      if let requestID, let replayed = try await replay(connection, requestID, event: event, key: key) {
        return replayed
      }
      let step: StoreStep
      do {
        step = try definition.storeStep(event, payload: payload, on: object)
      } catch {
        // A stale object's refusal is a conflict: the row may take the event (P4).
        if case .rejected = error, let current = try await current(connection, key), current.version != expected {
          throw .conflict(id: key, expectedVersion: expected, currentVersion: current.version, currentState: current.state)
        }
        throw error
      }
      return try await write(connection, step, object, key, cause: .event, requestID: requestID, dueAt: nil)
    }
    // §6's fast path: a step that runs no code, in one statement (without a request id, P6).
    if requestID == nil, let written = try await fastFire(connection, event, key: key, payload: payload, noWait: noWait) {
      return written
    }
    guard let row = try await lockRow(connection, key, noWait: noWait) else { throw .notFound(id: key) }
    if let requestID, let replayed = try await replay(connection, requestID, event: event, key: key) {
      return replayed
    }
    let model = try fresh(row, key)
    let step = try definition.storeStep(event, payload: payload, on: model)
    return try await write(connection, step, model, key, cause: .event, requestID: requestID, dueAt: nil)
  }

  /// The outcome of the step recorded with `requestID`, nothing run or written (P6); `nil` when
  /// none is recorded.
  private func replay(_ connection: PostgresConnection, _ requestID: UUID, event: String, key: String)
    async throws(StateMachineStoreError) -> Written?
  {
    var statement = PostgresStatement()
    statement.sql = """
      SELECT entity_id, event, version, from_state, to_state FROM sm_transitions
       WHERE machine = \(statement.bind(table.machine)) AND request_id = \(statement.bind(requestID)) ORDER BY version
      """
    let rows = try await run(connection, statement, key: key)
    let recorded = try PostgresStoreFailure.sync(key) {
      try rows.map { try $0.decode((String, String, Int64, String, String).self) }
    }
    guard let first = recorded.first, let last = recorded.last else { return nil }
    guard first.0 == key, first.1 == event else {
      throw .requestIDReused(requestID: requestID, id: key, event: event)
    }
    var select = PostgresStatement()
    let filter = table.row(key, idType: try await idType(connection), &select)
    select.sql = "SELECT \(table.selectList(mapping.columns)) FROM \(table.quotedName) WHERE \(filter)"
    guard let row = try await run(connection, select, key: key).first else { throw .notFound(id: key) }
    let transitions = recorded.map { CompletedTransition(from: $0.3, event: $0.1, to: $0.4) }
    let fired = Fired(
      model: try fresh(row, key), from: first.3, to: last.4, version: last.2, transitions: transitions,
      replayed: true)
    return Written(step: nil, fired: fired)
  }

  /// Writes a step, everything in the open transaction: the row by compare-and-set on the
  /// version, `RETURNING` the new one (P4; zero rows is a conflict), with the object's own
  /// columns; a history row per microstep (P2); the exited states' deadlines deleted and the
  /// armed ones inserted (P8); the outbox messages (P16).
  func write(
    _ connection: PostgresConnection, _ step: StoreStep, _ model: Model, _ key: String, cause: StoredTransition.Cause,
    requestID: UUID?, dueAt: Date?
  ) async throws(StateMachineStoreError) -> Written {
    let binds = try PostgresStoreFailure.sync(key) { try mapping.bindings(model) }
    let messages = try outboxMessages(step, model, key)
    let idType = try await idType(connection)
    var update = PostgresStatement(binds: binds)
    var assignments = mapping.columns.enumerated().filter { $0.element != table.idColumn }.map {
      "\($0.element.quotedIdentifier) = $\($0.offset + 1)"
    }
    let machineValues = try PostgresStoreFailure.sync(key) { try PostgresMachineTable.bind(step.after, &update) }
    assignments += zip(["state", "sm_version", "sm_terminated", "sm_history"], machineValues).map { "\($0) = \($1)" }
    let filter = table.row(key, idType: idType, &update)
    update.sql = """
      UPDATE \(table.quotedName) SET \(assignments.joined(separator: ", "))
       WHERE \(filter) AND sm_version = \(update.bind(step.before.version)) RETURNING sm_version
      """
    guard try await run(connection, update, key: key).count == 1 else {
      guard let current = try await current(connection, key) else { throw .notFound(id: key) }
      throw .conflict(
        id: key, expectedVersion: step.before.version, currentVersion: current.version, currentState: current.state)
    }
    if configuration.history && !step.transitions.isEmpty {
      try await insertHistory(connection, step, key, cause: cause, requestID: requestID, dueAt: dueAt)
    }
    try await disarm(connection, step.exited, key)
    try await arm(connection, step, key)
    for message in messages {
      var insert = PostgresStatement()
      let time = self.now(&insert)
      insert.sql = """
        INSERT INTO sm_outbox (machine, entity_id, version, topic, payload, available_at, created_at)
        VALUES (\(insert.bind(table.machine)), \(insert.bind(key)), \(insert.bind(message.version)),
          \(insert.bind(message.topic)), CAST(\(insert.bind(String(decoding: message.payload, as: UTF8.self))) AS json),
          \(time), \(time))
        """
      try await run(connection, insert, key: key)
    }
    try await wakeSchedulers(connection, armed: step.armed.map(\.delay), messages: messages.count, key: key)
    crashPoint(.afterWrite)
    let fired = Fired(
      model: model, from: step.before.state, to: step.after.state, version: step.after.version,
      transitions: step.transitions)
    return Written(step: step, fired: fired)
  }

  /// One history row per microstep, in one statement (P2); each carries the step's request id (P6).
  private func insertHistory(
    _ connection: PostgresConnection, _ step: StoreStep, _ key: String, cause: StoredTransition.Cause, requestID: UUID?,
    dueAt: Date?
  ) async throws(StateMachineStoreError) {
    var insert = PostgresStatement()
    let at: String
    if case .database = clock { at = "clock_timestamp()" } else { at = insert.bind(clock.now) }
    let machine = insert.bind(table.machine)
    let entity = insert.bind(key)
    let causeValue = insert.bind(cause.rawValue)
    let request = "CAST(\(insert.bind(requestID)) AS uuid)"
    let due = "CAST(\(insert.bind(dueAt)) AS timestamptz)"
    var rows: [String] = []
    var version = step.before.version
    for transition in step.transitions {
      version += 1
      let payload = try PostgresStoreFailure.sync(key) {
        try (transition.payload as? any Encodable).map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
      }
      rows.append(
        "(\(machine), \(entity), \(insert.bind(version)), \(insert.bind(transition.event)), "
          + "\(insert.bind(transition.from)), \(insert.bind(transition.to)), \(causeValue), "
          + "CAST(\(insert.bind(payload)) AS json), \(request), \(due), \(at))")
    }
    insert.sql = """
      INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, payload,
        request_id, due_at, at) VALUES \(rows.joined(separator: ", "))
      """
    try await run(connection, insert, key: key)
  }

  /// The step's outbox messages, made before anything is written: a `make` that throws rolls the
  /// step back (P16).
  private func outboxMessages(_ step: StoreStep, _ model: Model, _ key: String) throws(StateMachineStoreError)
    -> [OutboxMessage]
  {
    var messages: [OutboxMessage] = []
    var version = step.before.version
    for transition in step.transitions {
      version += 1
      for rule in configuration.outboxRules where rule.event == transition.event {
        do {
          let payload = try JSONEncoder().encode(try rule.make(model, transition))
          messages.append(OutboxMessage(id: 0, entityID: key, version: version, topic: rule.topic, payload: payload))
        } catch {
          throw .callbackFailed(event: transition.event, underlying: error)
        }
      }
    }
    return messages
  }

  /// Deletes the deadline rows of the states a step exited or entered again (P8).
  func disarm(_ connection: PostgresConnection, _ states: [String], _ key: String) async throws(StateMachineStoreError) {
    guard !states.isEmpty else { return }
    var statement = PostgresStatement()
    statement.sql = """
      DELETE FROM sm_deadlines WHERE machine = \(statement.bind(table.machine)) AND entity_id = \(statement.bind(key))
         AND state = ANY(\(statement.bind(states)))
      """
    try await run(connection, statement, key: key)
  }

  /// Inserts the deadline rows a step armed, due on the store's clock (P8, P15).
  func arm(_ connection: PostgresConnection, _ step: StoreStep, _ key: String) async throws(StateMachineStoreError) {
    guard !step.armed.isEmpty else { return }
    var statement = PostgresStatement()
    let time = self.now(&statement)
    let machine = statement.bind(table.machine)
    let entity = statement.bind(key)
    let version = statement.bind(step.after.version)
    let rows = step.armed.map { timeout in
      "(\(machine), \(entity), \(statement.bind(timeout.state)), \(statement.bind(timeout.event)), \(version), "
        + "\(plus(time, timeout.delay, &statement)))"
    }
    statement.sql =
      "INSERT INTO sm_deadlines (machine, entity_id, state, event, armed_version, due_at) VALUES "
      + rows.joined(separator: ", ")
    try await run(connection, statement, key: key)
  }

  /// Puts the row into `state` without callbacks: one history row, deadlines re-armed.
  func restore(_ key: String, to state: String) async throws(StateMachineStoreError) {
    let written = try await transaction(key: key) { connection throws(StateMachineStoreError) in
      guard let row = try await self.lockRow(connection, key) else { throw .notFound(id: key) }
      let model = try self.fresh(row, key)
      let step = try self.definition.storeRestore(state, on: model)
      return try await self.write(connection, step, model, key, cause: .restore, requestID: nil, dueAt: nil)
    }
    written.step?.committed()
  }
}
#endif
