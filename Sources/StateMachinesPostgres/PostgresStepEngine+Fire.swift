// Firing an event on a row (P3, P4, P6), as Persistence §6 lists it: the fast path for a step
// that runs no code, else the locked step, whose write is in PostgresStepEngine+Write.swift.

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
    // The fast path (Persistence §6): one statement in autocommit (comparing the version when one
    // is expected); when it writes nothing, the locked step, which reports a conflict. Not with
    // a lock timeout, which only a transaction can carry.
    if object == nil, options.requestID == nil, self.options.lockTimeout == nil,
      let fired = try await fireFast(
        event, key: key, payload: payload, noWait: options.lock == .noWait, expectedVersion: options.expectedVersion)
    {
      return fired
    }
    var expected = options.expectedVersion
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
      // By id, the row's lock goes with BEGIN (one wait for both); on an object, no lock (P4).
      let noWait = options.lock == .noWait
      var opening: ((PostgresConnection) async throws(StateMachineStoreError) -> PostgresStatement)?
      if onObject == nil {
        opening = { connection async throws(StateMachineStoreError) in
          try await self.lockStatement(connection, key, noWait: noWait)
        }
      }
      let written = try await transaction(key: key, requestID: options.requestID, opening: opening) {
        connection, lockRows throws(StateMachineStoreError) in
        try await self.step(
          connection, event, key: key, payload: payload, requestID: options.requestID,
          noWait: noWait, expected: expectedVersion, on: onObject, fast: false, locked: lockRows)
      }
      written.committed()
      return written.fired
    }
  }

  /// One fire inside the transaction. By id: the fast path unless `fast` is false (the caller
  /// tried it already), else lock the row (`FOR UPDATE`, P3; `locked` is the answer of
  /// ``lockStatement(_:_:noWait:)`` when the caller sent it already), replay a recorded request
  /// id's outcome (P6), load a fresh object, run the step and write it. On an object: no lock,
  /// the write's compare-and-set decides (P4).
  func step(
    _ connection: PostgresConnection, _ event: String, key: String, payload: (any Encodable & Sendable)?,
    requestID: UUID?, noWait: Bool, expected: Int64?, on object: Model?, fast: Bool = true,
    locked lockRows: [PostgresRow]? = nil
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
    // The fast path (Persistence §6): a step that runs no code, in one statement (without a
    // request id, P6).
    if fast, requestID == nil,
      let written = try await fastFire(
        connection, event, key: key, payload: payload, noWait: noWait, expectedVersion: expected)
    {
      return written
    }
    let lockedRow: PostgresRow?
    if let lockRows {
      lockedRow = locked(lockRows)
    } else {
      lockedRow = try await lockRow(connection, key, noWait: noWait)
    }
    guard let row = lockedRow else { throw .notFound(id: key) }
    if let requestID, let replayed = try await replay(connection, requestID, event: event, key: key) {
      return replayed
    }
    let (model, loaded) = try lockedObject(row, key)
    if let expected {
      // P4 by id (`FireOptions.expectedVersion`): the locked row must still be at that version.
      let current = definition.storedState(of: model)
      guard current.version == expected else {
        throw .conflict(id: key, expectedVersion: expected, currentVersion: current.version, currentState: current.state)
      }
    }
    let step = try definition.storeStep(event, payload: payload, on: model)
    return try await write(connection, step, model, key, cause: .event, requestID: requestID, dueAt: nil, loaded: loaded)
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
    return Written(fired: fired)
  }

  /// Puts the row into `state` without callbacks: one history row, deadlines re-armed.
  func restore(_ key: String, to state: String) async throws(StateMachineStoreError) {
    let written = try await transaction(key: key) { connection throws(StateMachineStoreError) in
      guard let row = try await self.lockRow(connection, key) else { throw .notFound(id: key) }
      let model = try self.fresh(row, key)
      let step = try self.definition.storeRestore(state, on: model)
      return try await self.write(connection, step, model, key, cause: .restore, requestID: nil, dueAt: nil)
    }
    written.committed()
  }
}
#endif
