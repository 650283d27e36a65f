// Firing an event on a row (P3, P4, P6) and writing a step (P1, P2, P8, P16).

#if SQLite
import Foundation
import GRDB
import StateMachines

extension SQLiteStepEngine {
  /// Fires `event` on the row with `key` (P3), or, with `object`, on the caller's object provided
  /// the row is still at `expected` (P4), retrying as `options` say.
  func fire(
    _ event: String, key: String, payload: (any Encodable & Sendable)?, options: FireOptions, object: Model?
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    var expected = options.expectedVersion
    var copy: Model?
    if let object {
      // P4: the step runs on a copy of the caller's object (its own columns as the caller set
      // them), provided the row is still at the object's version.
      let machine = definition.storedState(of: object)
      copy = try SQLiteStoreFailure.database(key) { try mapping.copy(object) }
      try definition.load(machine, into: copy!, id: key)
      expected = machine.version
    }
    return try await options.reloadingOnConflict(expected: expected, object: copy) {
      expectedVersion, onObject throws(StateMachineStoreError) in
      let object = _StoreHandOff(onObject)
      let written = try await transaction(key: key, noWait: options.lock == .noWait) {
        db throws(StateMachineStoreError) in
        try self.step(
          db, event, key: key, payload: payload, requestID: options.requestID, expected: expectedVersion,
          on: object.value)
      }
      written.committed()
      return written.fired
    }
  }

  /// One fire inside the transaction: a recorded request id's outcome (P6), or load, check the
  /// version (P4), run the step and write it.
  func step(
    _ db: Database, _ event: String, key: String, payload: (any Encodable & Sendable)?, requestID: UUID?,
    expected: Int64?, on object: Model?
  ) throws(StateMachineStoreError) -> Written {
    switch try prepare(db, event, key: key, payload: payload, requestID: requestID, expected: expected, on: object) {
    case .done(let written): return written
    case .full(let row): return try fullStep(db, event, row, key: key, payload: payload, requestID: requestID, on: object)
    }
  }

  /// How a fire goes on once its row is read.
  enum Prepared {
    /// Replayed (P6) or written by the fast path (Persistence §6).
    case done(Written)
    /// The step needs the object: ``fullStep(_:_:_:key:payload:requestID:on:)`` with this row.
    case full(Row)
  }

  /// The first part of a fire: a recorded request id's outcome (P6), or the row read and its
  /// version checked (P4), then the fast path (Persistence §6) for a step that runs no code.
  /// Whatever it throws, it has written nothing.
  func prepare(
    _ db: Database, _ event: String, key: String, payload: (any Encodable & Sendable)?, requestID: UUID?,
    expected: Int64?, on object: Model?
  ) throws(StateMachineStoreError) -> Prepared {
    if let requestID, let replayed = try replay(db, requestID, event: event, key: key) {
      return .done(replayed)
    }
    // The row is read in place: the fast path decodes the object from it and copies nothing.
    let read = try withRow(db, key) { row, columns throws -> Read in
      let machine = try columns.machineState(row)
      if let expected, expected != machine.version {
        throw StateMachineStoreError.conflict(
          id: key, expectedVersion: expected, currentVersion: machine.version, currentState: machine.state)
      }
      if object == nil,
        let pure = definition.pureStoreStep(event, payload: payload, from: machine, configuration: configuration)
      {
        // The object first: nothing is written when the row does not decode.
        return .pure(pure, try mapping.decode(row))
      }
      return .full(row.copy())
    }
    switch read {
    case nil: throw .notFound(id: key)
    case .pure(let step, let model): return .done(try writePure(db, step, model, key, requestID: requestID))
    case .full(let row): return .full(row)
    }
  }

  /// What ``prepare(_:_:key:payload:requestID:expected:on:)`` read of the row.
  private enum Read {
    /// The fast path (Persistence §6): the pure step, and the object decoded from the row.
    case pure(StoreStep, Model)
    /// The normal path, with a copy of the row.
    case full(Row)
  }

  /// The step on the object (the caller's, or one loaded from `row`), then its writes.
  func fullStep(
    _ db: Database, _ event: String, _ row: Row, key: String, payload: (any Encodable & Sendable)?, requestID: UUID?,
    on object: Model?
  ) throws(StateMachineStoreError) -> Written {
    let model: Model
    if let object { model = object } else { model = try fresh(row, key) }
    let step = try definition.storeStep(event, payload: payload, on: model)
    return try write(db, step, model, key, cause: .event, requestID: requestID, dueAt: nil)
  }

  /// The outcome of the step recorded with `requestID`, nothing run or written (P6); `nil` when
  /// none is recorded.
  private func replay(_ db: Database, _ requestID: UUID, event: String, key: String) throws(StateMachineStoreError)
    -> Written?
  {
    let rows = try SQLiteStoreFailure.database(key) {
      try Row.fetchAll(
        db,
        sql: "SELECT entity_id, event, version, from_state, to_state FROM sm_transitions "
          + "WHERE machine = ? AND request_id = ? ORDER BY version",
        arguments: [table.machine, requestID.uuidString])
    }
    guard let first = rows.first, let last = rows.last else { return nil }
    guard first["entity_id"] as String == key, first["event"] as String == event else {
      throw .requestIDReused(requestID: requestID, id: key, event: event)
    }
    guard let row = try fetchRow(db, key) else { throw .notFound(id: key) }
    let transitions = rows.map { CompletedTransition(from: $0["from_state"], event: $0["event"], to: $0["to_state"]) }
    let fired = Fired(
      model: try fresh(row, key), from: first["from_state"], to: last["to_state"], version: last["version"],
      transitions: transitions, replayed: true)
    return Written(fired: fired)
  }

  /// Writes a step, everything in the open transaction: the row by compare-and-set on the
  /// version (P4) with the object's own columns, a history row per microstep (P2), the exited
  /// states' deadlines deleted and the armed ones inserted (P8), the outbox messages (P16).
  func write(
    _ db: Database, _ step: StoreStep, _ model: Model, _ key: String, cause: StoredTransition.Cause, requestID: UUID?,
    dueAt: Date?
  ) throws(StateMachineStoreError) -> Written {
    let columns = try SQLiteStoreFailure.database(key) { try mapping.columns(model) }
    let rows = try StoreStepRows(step, model: model, key: key, configuration: configuration)
    let now = clock.now.storeMilliseconds
    try SQLiteStoreFailure.database(key) {
      let owned = columns.keys.filter { $0 != table.idColumn }.sorted()
      var arguments = StatementArguments(owned.map { columns[$0]! })
      arguments += try SQLiteMachineTable.arguments(step.after)
      arguments += table.keyArguments(key)
      arguments += [step.before.version]
      try db.cached(updateSQL(owned), arguments)
    }
    try checkWritten(db, step, key)
    try insertHistory(db, rows.history, key, cause: cause, requestID: requestID, dueAt: dueAt, now: now)
    try disarm(db, rows.exited.filter(timedStates.contains), key)
    try arm(db, step, key)
    try SQLiteStoreFailure.database(key) {
      for message in rows.messages {
        try db.cached(
          "INSERT INTO sm_outbox (machine, entity_id, version, topic, payload, available_at, created_at) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?)",
          [
            table.machine, key, message.version, message.topic, String(decoding: message.payload, as: UTF8.self), now,
            now,
          ])
      }
    }
    crashPoint(.afterWrite)
    return Written(step, model)
  }

  /// The compare-and-set `UPDATE` of the object's own columns `owned` (sorted) and the machine
  /// columns, built once per set of columns: its arguments are `owned`'s values, the machine
  /// columns' (``SQLiteMachineTable/arguments(_:)``), the row's, then the version the step read.
  private func updateSQL(_ owned: [String]) -> String {
    if let sql = lock.withLock({ updateStatements[owned] }) { return sql }
    var assignments = owned.map { "\($0.quotedDatabaseIdentifier) = ?" }
    assignments += ["state = ?", "sm_version = ?", "sm_terminated = ?", "sm_history = ?"]
    let sql =
      "UPDATE \(table.quotedName) SET \(assignments.joined(separator: ", ")) WHERE \(table.rowSQL) AND sm_version = ?"
    lock.withLock { updateStatements[owned] = sql }
    return sql
  }

  /// Throws the conflict (P4) or `.notFound` when the compare-and-set `UPDATE` just run changed
  /// no row.
  func checkWritten(_ db: Database, _ step: StoreStep, _ key: String) throws(StateMachineStoreError) {
    guard db.changesCount != 1 else { return }
    let current = try self.current(db, key)
    guard let current else { throw .notFound(id: key) }
    throw .conflict(
      id: key, expectedVersion: step.before.version, currentVersion: current.version, currentState: current.state)
  }

  /// The step's history rows (P2; ``StoreStepRows``), each with the step's cause and request id.
  func insertHistory(
    _ db: Database, _ history: [StoreStepRows.History], _ key: String, cause: StoredTransition.Cause,
    requestID: UUID?, dueAt: Date?, now: Int64
  ) throws(StateMachineStoreError) {
    try SQLiteStoreFailure.database(key) {
      for row in history {
        try db.cached(
          SQLiteMachineTable.insertHistorySQL,
          [
            table.machine, key, row.version, row.event, row.from, row.to, cause.rawValue, row.payload,
            requestID?.uuidString, dueAt?.storeMilliseconds, now,
          ])
      }
    }
  }

  /// Deletes the deadline rows of the states a step exited or entered again (P8).
  func disarm(_ db: Database, _ states: [String], _ key: String) throws(StateMachineStoreError) {
    guard !states.isEmpty else { return }
    let placeholders = Array(repeating: "?", count: states.count).joined(separator: ", ")
    try SQLiteStoreFailure.database(key) {
      try db.cached(
        "DELETE FROM sm_deadlines WHERE machine = ? AND entity_id = ? AND state IN (\(placeholders))",
        [table.machine, key] + StatementArguments(states))
    }
  }

  /// Inserts the deadline rows a step armed, due on the store's clock (P8).
  func arm(_ db: Database, _ step: StoreStep, _ key: String) throws(StateMachineStoreError) {
    let now = clock.now
    try SQLiteStoreFailure.database(key) {
      for timeout in step.armed {
        try db.cached(
          "INSERT INTO sm_deadlines (machine, entity_id, state, event, armed_version, due_at) VALUES (?, ?, ?, ?, ?, ?)",
          [
            table.machine, key, timeout.state, timeout.event, step.after.version,
            (now + timeout.delay.storeSeconds).storeMilliseconds,
          ])
      }
    }
  }

  /// Puts the row into `state` without callbacks: one history row, deadlines re-armed.
  func restore(_ key: String, to state: String) async throws(StateMachineStoreError) {
    let written = try await transaction(key: key) { db throws(StateMachineStoreError) in
      guard let row = try self.fetchRow(db, key) else { throw .notFound(id: key) }
      let model = try self.fresh(row, key)
      let step = try self.definition.storeRestore(state, on: model)
      return try self.write(db, step, model, key, cause: .restore, requestID: nil, dueAt: nil)
    }
    written.committed()
  }
}
#endif
