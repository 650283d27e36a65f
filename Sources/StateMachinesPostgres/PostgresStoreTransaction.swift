// One transaction of the application's that also fires store events (Persistence §4.2):
// postgres-nio has no after-commit hook, so the store owns BEGIN and COMMIT and therefore knows
// when the steps' `after` callbacks, observers and outbox wake-ups may run (P5): after COMMIT,
// never after a ROLLBACK.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

/// The transaction of ``PostgresStateMachineStore/withTransaction(_:)``: the application runs
/// its own statements on ``connection`` and fires store events with `fire(_:on:…)`;
/// both commit together, or neither.
///
/// Valid only inside the closure that received it; use it from one task at a time (a connection
/// runs one statement at a time).
public struct PostgresStoreTransaction<Model: PostgresStateMachineRecord>: Sendable {
  /// The transaction's connection, for the application's own statements.
  public let connection: PostgresConnection
  let engine: PostgresStepEngine<Model>
  let held: PostgresHeldSteps

  /// Fires `event` on the row with `id` in this transaction: locks the row (P3) and writes the
  /// step, whose `after` callbacks and observers run once the transaction commits (P5).
  ///
  /// A fire runs in a savepoint: when it throws (a rejection, `.locked` under `lock: .noWait`, a
  /// callback's failure) nothing of it stays, and the transaction can go on; the application
  /// decides whether to commit the rest.
  @discardableResult
  public func fire(
    _ event: String, on id: Model.StoreID, payload: (any Encodable & Sendable)? = nil, options: FireOptions = .init()
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    let key = id.description
    return try await savepoint(key) { () throws(StateMachineStoreError) in
      try await engine.step(
        connection, event, key: key, payload: payload, requestID: options.requestID,
        noWait: options.lock == .noWait, expected: options.expectedVersion, on: nil)
    }
  }

  /// Fires `event` on the row `model` was loaded from, in this transaction, provided the row is
  /// still at the object's version (P4): else a conflict, or with `retry: .reload(max:)` another
  /// try on the row as it now is. `model` is never changed.
  @discardableResult
  public func fire(
    _ event: String, on model: Model, payload: (any Encodable & Sendable)? = nil, options: FireOptions = .init()
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    let key = model.storeID.description
    let machine = engine.definition.storedState(of: model)
    let copy = try await engine.copy(model, key)
    try engine.definition.load(machine, into: copy, id: key)
    return try await options.reloadingOnConflict(expected: machine.version, object: copy) {
      expected, object throws(StateMachineStoreError) in
      try await savepoint(key) { () throws(StateMachineStoreError) in
        try await engine.step(
          connection, event, key: key, payload: payload, requestID: options.requestID,
          noWait: options.lock == .noWait, expected: expected, on: object)
      }
    }
  }

  /// Fires `event` on the row with `id` in this transaction, by its compiler-checked name:
  /// `try await tx.fire(.pay, on: 42)`.
  @discardableResult
  public func fire(
    _ event: Model.EventName, on id: Model.StoreID, payload: (any Encodable & Sendable)? = nil,
    options: FireOptions = .init()
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    try await fire(event.rawValue, on: id, payload: payload, options: options)
  }

  /// Fires `event` on the row `model` was loaded from, in this transaction, by its
  /// compiler-checked name, provided the row is still at the object's version (P4).
  @discardableResult
  public func fire(
    _ event: Model.EventName, on model: Model, payload: (any Encodable & Sendable)? = nil,
    options: FireOptions = .init()
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    try await fire(event.rawValue, on: model, payload: payload, options: options)
  }

  /// Runs one step in a savepoint, rolled back to when it throws; keeps its work for after COMMIT.
  /// A step that found a statement prepared on the connection gone runs again, prepared again
  /// (Many application servers, prepared statements).
  private func savepoint(_ key: String, _ body: () async throws(StateMachineStoreError) -> PostgresStepEngine<Model>.Written)
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    try await engine.run(connection, "SAVEPOINT sm_fire", key: key)
    var written: PostgresStepEngine<Model>.Written?
    let attempts = PostgresStepEngine<Model>.deadlockRetries + 1
    for attempt in 0..<attempts where written == nil {
      do {
        written = try await body()
      } catch {
        if !PostgresStoreFailure.endedSession(error) {
          _ = try? await connection.answered("ROLLBACK TO SAVEPOINT sm_fire", logger: engine.logger)
          if attempt < attempts - 1, PostgresStoreFailure.isStalePreparedStatement(error) { continue }
          _ = try? await connection.answered("RELEASE SAVEPOINT sm_fire", logger: engine.logger)
        }
        throw error
      }
    }
    guard let written else { throw .database(PostgresStoreFailure("the step found its prepared statements gone on every attempt")) }
    try await engine.run(connection, "RELEASE SAVEPOINT sm_fire", key: key)
    if let step = written.step { held.append(step) }
    return written.fired
  }
}

/// The steps of an application transaction, whose held-back work runs after its COMMIT.
///
/// `@unchecked Sendable`: `steps` is read and written only under `lock`.
final class PostgresHeldSteps: @unchecked Sendable {
  private let lock = NSLock()
  private var steps: [StoreStep] = []

  func append(_ step: StoreStep) {
    lock.withLock { steps.append(step) }
  }

  /// Runs the steps' `after` callbacks, observers and streams, in step order (P5).
  func committed() {
    for step in lock.withLock({ steps }) { step.committed() }
  }
}

extension PostgresStateMachineStore {
  /// Runs `body` in one transaction with the application's own statements: BEGIN, `body`, COMMIT.
  ///
  /// Statements on the transaction's ``PostgresStoreTransaction/connection`` and fires through
  /// `fire(_:on:…)` commit together. The steps' `after`
  /// callbacks, observers and streams run once the COMMIT succeeded, in step order; when `body`
  /// throws, everything is rolled back (the application's statements too), the error is
  /// rethrown, and none of them runs (P5).
  ///
  /// ```swift
  /// try await orders.withTransaction { tx in
  ///   try await tx.connection.query("INSERT INTO invoices (order_id) VALUES (\(42))", logger: logger)
  ///   try await tx.fire("pay", on: 42)
  /// }
  /// ```
  ///
  /// - Throws: what `body` throws; `StateMachineStoreError.commitOutcomeUnknown`
  ///   when the COMMIT failed on the connection (P6: fire with request ids to find out); other
  ///   database failures as `StateMachineStoreError.database`. The transaction is not run
  ///   again (the application's statements may not repeat safely), except when its BEGIN found a
  ///   pooled connection the server had closed: nothing had run.
  public func withTransaction<Value: Sendable>(
    _ body: (PostgresStoreTransaction<Model>) async throws -> Value
  ) async throws -> Value {
    try await engine.applicationTransaction { connection, held in
      try await body(PostgresStoreTransaction(connection: connection, engine: engine, held: held))
    }
  }
}

extension PostgresStepEngine {
  /// BEGIN, `body`, COMMIT on one pooled connection; ROLLBACK when `body` throws. Once committed,
  /// the held-back work of the steps `body` fired runs (P5).
  func applicationTransaction<Value: Sendable>(
    _ body: (PostgresConnection, PostgresHeldSteps) async throws -> Value
  ) async throws -> Value {
    var attempt = 0
    while true {
      let held = PostgresHeldSteps()
      let result: Result<Value, any Error>
      do {
        result = try await client.withConnection { connection in
          do throws(StateMachineStoreError) {
            try await run(connection, "BEGIN", key: "")
          } catch {
            return .failure(PostgresStoreFailure.atBegin(error))
          }
          let value: Value
          do {
            value = try await body(connection, held)
          } catch {
            if !PostgresStoreFailure.endedSession(error) {
              _ = try? await connection.answered("ROLLBACK", logger: logger)
            }
            return .failure(error)
          }
          return await commit(connection, key: "", requestID: nil).map { value }.mapError { $0 as any Error }
        }
      } catch {
        throw PostgresStoreFailure.map(error, key: "")
      }
      switch result {
      case .success(let value):
        held.committed()
        return value
      case .failure(let error as StateMachineStoreError)
      where PostgresStoreFailure.isClosedAtBegin(error) && attempt < Self.deadlockRetries:
        attempt += 1
      case .failure(let error):
        throw error
      }
    }
  }
}
#endif
