// The fast path of Persistence §6: a fire by id whose step runs no code needs no object, so
// one statement (``PostgresFastPlan``) replaces the lock, the update and the history insert. On
// its own it runs in autocommit, one round trip: the statement is its own transaction (P1).
// Concurrent fires of one event share that round trip (``PostgresFastBatcher``).

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
  /// A fire that does not lock without waiting rides with the concurrent fires of its event,
  /// once the event's plan is made.
  func fireFast(
    _ event: String, key: String, payload: (any Encodable & Sendable)?, noWait: Bool, expectedVersion: Int64? = nil
  ) async throws(StateMachineStoreError) -> Fired<Model>? {
    let known = fastPlans.plan(for: event)
    if case .some(.none) = known { return nil }
    let json = try payloadJSON(payload, key)
    if case .some(.some(let plan)) = known, let batcher = plan.batcher, !noWait {
      let answer = await batched(plan, batcher, key: key, payload: json, expectedVersion: expectedVersion)
      return try fired(answer, plan, key: key, payload: payload)
    }
    let (plan, answer) = await sendAlone(event, key: key, payload: json, noWait: noWait, expectedVersion: expectedVersion)
    return try fired(answer, plan, key: key, payload: payload)
  }

  /// The answer to a fire that waits its turn in `batcher`: the statement it leads, or the one a
  /// leader sent for it.
  private func batched(
    _ plan: PostgresFastPlan, _ batcher: PostgresFastBatcher, key: String, payload: String?, expectedVersion: Int64?
  ) async -> PostgresFastBatcher.Answer {
    switch await batcher.enter(key: key, payload: payload, expectedVersion: expectedVersion) {
    case .answer(let answer):
      return answer
    case .lead(let batch):
      let answers = await sendBatch(plan, batch)
      // The next flight leaves before this one's answers are handed out.
      let next = batcher.land(batch)
      next.first?.continuation.resume(returning: .lead(next))
      for (fire, answer) in zip(batch, answers).dropFirst() { fire.continuation.resume(returning: .answer(answer)) }
      return answers[0]
    }
  }

  /// Sends one fire's statement in autocommit, with the event's plan, made on the connection if
  /// need be (`nil` when the event has none); the answer is `.notWritten` when nothing was sent
  /// (no plan, a pooled connection found closed).
  private func sendAlone(
    _ event: String, key: String, payload: String?, noWait: Bool, expectedVersion: Int64?
  ) async -> (plan: PostgresFastPlan?, answer: PostgresFastBatcher.Answer) {
    let sent: (PostgresFastPlan, Result<[PostgresRow], any Error>)?
    do {
      sent = try await client.withConnection { connection -> (PostgresFastPlan, Result<[PostgresRow], any Error>)? in
        guard !connection.isClosed else { return nil }
        guard let plan = try await fastPlan(event, connection) else { return nil }
        let statement = plan.statement(key: key, payload: payload, at: clock.now, noWait: noWait, expectedVersion: expectedVersion)
        return (plan, await sendRetryingStale(statement, connection))
      }
    } catch {
      return (nil, .failed(PostgresStoreFailure.map(error, key: key)))
    }
    guard let (plan, result) = sent else { return (nil, .notWritten) }
    switch result {
    case .failure(let error) where PostgresStoreFailure.isConnectionLoss(error):
      return (plan, .failed(.commitOutcomeUnknown(requestID: nil, underlying: error)))
    case .failure(let error):
      return (plan, .failed(PostgresStoreFailure.map(error, key: key)))
    case .success(let rows):
      return (plan, rows.first.map { .written($0) } ?? .notWritten)
    }
  }

  /// Sends the statement of the fires of a batch (one event, each fire on its own row) in
  /// autocommit, and gives each fire its answer, in the batch's order. A statement the server
  /// refused wrote nothing: each fire then takes the locked step on its own, which reports its
  /// own error; so does a fire whose row another transaction held.
  private func sendBatch(_ plan: PostgresFastPlan, _ batch: [PostgresFastBatcher.Fire]) async
    -> [PostgresFastBatcher.Answer]
  {
    let sent: Result<[PostgresRow], any Error>?
    do {
      sent = try await client.withConnection { connection -> Result<[PostgresRow], any Error>? in
        guard !connection.isClosed else { return nil }
        let statement = plan.batchStatement(batch, at: clock.now)
        return await sendRetryingStale(statement, connection)
      }
    } catch {
      return batch.map { .failed(PostgresStoreFailure.map(error, key: $0.key)) }
    }
    switch sent {
    case nil:
      return batch.map { _ in .notWritten }
    case .failure(let error)? where PostgresStoreFailure.isConnectionLoss(error):
      return batch.map { _ in .failed(.commitOutcomeUnknown(requestID: nil, underlying: error)) }
    case .failure?:
      return batch.map { _ in .notWritten }
    case .success(let rows)?:
      var answers = [PostgresFastBatcher.Answer](repeating: .notWritten, count: batch.count)
      let place = mapping.columns.count + 7
      for row in rows {
        // `sm_fire_ord`: the fire's place in the batch, from 1. A row that does not say whose it
        // is was written for a fire that cannot be told: no fire without its row may then take
        // the locked step, which would apply its event a second time.
        guard let ordinal = try? row.makeRandomAccess()[place].decode(Int64.self), 1...Int64(batch.count) ~= ordinal
        else {
          let failure = StateMachineStoreError.database(PostgresStoreFailure("a batched fire's row names no fire"))
          return answers.map { if case .written = $0 { $0 } else { .failed(failure) } }
        }
        answers[Int(ordinal) - 1] = .written(row)
      }
      return answers
    }
  }

  /// Sends `statement` on `connection`; a prepared statement the server no longer runs (it ran
  /// nothing) is prepared again and sent once more.
  private func sendRetryingStale(_ statement: PostgresStatement, _ connection: PostgresConnection) async
    -> Result<[PostgresRow], any Error>
  {
    do {
      return .success(try await connection.rows(of: statement, preparedIn: preparedStatements, autocommit: true, logger: logger))
    } catch where PostgresStoreFailure.isStalePreparedStatement(error) {
      do {
        return .success(try await connection.rows(of: statement, preparedIn: preparedStatements, autocommit: true, logger: logger))
      } catch {
        return .failure(error)
      }
    } catch {
      return .failure(error)
    }
  }

  /// A fire's result from its answer: the step it wrote, `nil` when it wrote none (the locked
  /// step follows), or the error.
  private func fired(
    _ answer: PostgresFastBatcher.Answer, _ plan: PostgresFastPlan?, key: String, payload: (any Sendable)?
  ) throws(StateMachineStoreError) -> Fired<Model>? {
    switch answer {
    case .notWritten:
      return nil
    case .failed(let error):
      throw error
    case .written(let row):
      guard let plan else { throw .database(PostgresStoreFailure("a fast fire wrote without a plan")) }
      crashPoint(.afterCommit)
      return try fastWritten(row, plan, key: key, payload: payload).fired
    }
  }

  /// The payload as JSON text, for the history row.
  private func payloadJSON(_ payload: (any Encodable & Sendable)?, _ key: String) throws(StateMachineStoreError) -> String? {
    try PostgresStoreFailure.sync(key) { try payload.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) } }
  }

  /// The fast path inside an open transaction (an application's, or a fire's own): the same
  /// statement, committed with the transaction; `nil`, with nothing written, as for
  /// ``fireFast(_:key:payload:noWait:)``, and the caller's `SELECT … FOR UPDATE` finds the row.
  func fastFire(
    _ connection: PostgresConnection, _ event: String, key: String, payload: (any Encodable & Sendable)?, noWait: Bool,
    expectedVersion: Int64? = nil
  ) async throws(StateMachineStoreError) -> Written? {
    guard let plan = try await fastPlan(event, connection) else { return nil }
    let json = try payloadJSON(payload, key)
    let statement = plan.statement(key: key, payload: json, at: clock.now, noWait: noWait, expectedVersion: expectedVersion)
    guard let row = try await run(connection, statement, key: key).first else { return nil }
    // One statement took the lock and wrote: both points are passed at once, nothing committed.
    crashPoint(.afterLock)
    crashPoint(.afterWrite)
    return try fastWritten(row, plan, key: key, payload: payload)
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
