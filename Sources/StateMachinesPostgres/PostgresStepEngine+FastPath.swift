// The fast path of Persistence §6: a fire by id whose step runs no code needs no object, so
// one statement (``PostgresFastPlan``) replaces the lock, the update and the history insert. On
// its own it runs in autocommit, one round trip: the statement is its own transaction (P1).

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

extension PostgresStepEngine {
  /// Fires `event` on the row with `key` in one statement in autocommit, when the row's state
  /// takes a pure step (``StateMachineDefinition/pureStoreTransitions(_:configuration:)``); `nil`,
  /// with nothing written, when it does not (no such row, terminated, a state whose step needs
  /// the object or rejects the event, a writer that committed since the statement read the
  /// row): the caller then takes the locked path, which tells these apart (P3).
  ///
  /// Without a request id only: a recorded one must be replayed after the lock (P6). As the
  /// statement commits itself, one whose connection fails may have committed:
  /// `.commitOutcomeUnknown` (P6), unless the pooled connection was closed before it was sent.
  func fireFast(
    _ event: String, key: String, payload: (any Encodable & Sendable)?, noWait: Bool, expectedVersion: Int64? = nil
  ) async throws(StateMachineStoreError) -> Fired<Model>? {
    if case .some(.none) = fastPlans.plan(for: event) { return nil }
    let sent: Result<(PostgresFastPlan, [PostgresRow]), any Error>?
    do {
      sent = try await client.withConnection { connection -> Result<(PostgresFastPlan, [PostgresRow]), any Error>? in
        guard !connection.isClosed, let plan = try await fastPlan(event, connection) else { return nil }
        let statement = try fastStatement(plan, key: key, payload: payload, noWait: noWait, expectedVersion: expectedVersion)
        do {
          return .success((plan, try await connection.send(statement, preparedIn: preparedStatements, logger: logger).rows()))
        } catch where PostgresStoreFailure.isStalePreparedStatement(error) {
          // The server ran nothing; the statement, prepared again, runs once more.
          do {
            return .success((plan, try await connection.send(statement, preparedIn: preparedStatements, logger: logger).rows()))
          } catch {
            return .failure(error)
          }
        } catch {
          return .failure(error)
        }
      }
    } catch {
      throw PostgresStoreFailure.map(error, key: key)
    }
    switch sent {
    case nil:
      return nil
    case .failure(let error) where PostgresStoreFailure.isConnectionLoss(error):
      throw .commitOutcomeUnknown(requestID: nil, underlying: error)
    case .failure(let error):
      throw PostgresStoreFailure.map(error, key: key)
    case .success((let plan, let rows)):
      guard let row = rows.first else { return nil }
      crashPoint(.afterCommit)
      return try fastWritten(row, plan, key: key, payload: payload).fired
    }
  }

  /// The fast path inside an open transaction (an application's, or a fire's own): the same
  /// statement, committed with the transaction; `nil`, with nothing written, as for
  /// ``fireFast(_:key:payload:noWait:)``, and the caller's `SELECT … FOR UPDATE` finds the row.
  func fastFire(
    _ connection: PostgresConnection, _ event: String, key: String, payload: (any Encodable & Sendable)?, noWait: Bool,
    expectedVersion: Int64? = nil
  ) async throws(StateMachineStoreError) -> Written? {
    guard let plan = try await fastPlan(event, connection) else { return nil }
    let statement = try fastStatement(plan, key: key, payload: payload, noWait: noWait, expectedVersion: expectedVersion)
    guard let row = try await run(connection, statement, key: key).first else { return nil }
    // One statement took the lock and wrote: both points are passed at once, nothing committed.
    crashPoint(.afterLock)
    crashPoint(.afterWrite)
    return try fastWritten(row, plan, key: key, payload: payload)
  }

  /// The statement of one fast fire: the payload encoded as JSON for the history row.
  private func fastStatement(
    _ plan: PostgresFastPlan, key: String, payload: (any Encodable & Sendable)?, noWait: Bool,
    expectedVersion: Int64? = nil
  ) throws(StateMachineStoreError) -> PostgresStatement {
    try PostgresStoreFailure.sync(key) {
      try plan.statement(
        key: key, payload: try payload.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) },
        at: clock.now, noWait: noWait, expectedVersion: expectedVersion)
    }
  }

  /// The fire's result from the row the statement wrote: its own columns, its machine columns,
  /// then the state it left. The step is the one ``StateMachineDefinition/pureStoreStep(_:payload:from:configuration:)``
  /// gives: one microstep, nothing held back for after the commit (P5).
  private func fastWritten(_ row: PostgresRow, _ plan: PostgresFastPlan, key: String, payload: (any Sendable)?)
    throws(StateMachineStoreError) -> Written
  {
    let offset = mapping.columns.count
    let (model, after, before) = try PostgresStoreFailure.sync(key) {
      (
        try mapping.decode(row), try PostgresMachineTable.machineState(row, offset: offset),
        try row.makeRandomAccess()[offset + 5].decode(String.self)
      )
    }
    guard plan.targets[before] == after.state else {
      throw .database(PostgresStoreFailure("the fast path wrote a step the definition does not take"))
    }
    try definition.load(after, into: model, id: key)
    let transition = CompletedTransition(from: before, event: plan.event, to: after.state, payload: payload)
    let fired = Fired(model: model, from: before, to: after.state, version: after.version, transitions: [transition])
    return Written(fired: fired)
  }
}
#endif
