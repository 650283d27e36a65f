// The PostgreSQL store of run-time definitions (JSON, SCXML): `DynamicStateMachine` rows in the
// store-owned `sm_instances` table, one machine name per definition (PERSISTENCE.md §11). The
// same step engine as the record store (`PostgresStepEngine` over a shared
// `PostgresMachineTable`), so every rule holds for both; the twin of `SQLiteInstanceStore`.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import StateMachines

/// A store of `DynamicStateMachine` instances of one run-time definition, kept in the library's
/// `sm_instances` table under a machine name.
///
/// It keeps every rule of ``PostgresStateMachineStore`` (P1–P16): any number of processes may
/// fire on the same rows; ids are strings. Create the library's tables first
/// (``PostgresStateMachineTables/create(on:logger:)``). The `statemachine store` commands are
/// built on it.
///
/// ```swift
/// let players = PostgresInstanceStore(client, definition: definition, machine: "player")
/// try await players.insert("a")
/// try await players.fire("power", on: "a")
/// ```
public final class PostgresInstanceStore: @unchecked Sendable {
  let engine: PostgresStepEngine<DynamicStateMachine>

  /// A store of `definition`'s instances named `machine`, with deadlines on `clock` (by default
  /// the database's, P15). The `PostgresClient` must be running.
  public init(
    _ client: PostgresClient, definition: StateMachineDefinition<DynamicStateMachine>, machine: String,
    clock: StoreClock = .database, configuration: StoreConfiguration<DynamicStateMachine> = .init(),
    logger: Logger = PostgresStepLogger.logger
  ) {
    // No own columns: a row is the machine columns alone, keyed by (machine, entity_id).
    let mapping = PostgresRowMapping<DynamicStateMachine>(
      columns: [], decode: { _ in DynamicStateMachine(definition) }, bindings: { _ in PostgresBindings() })
    engine = PostgresStepEngine(
      client: client, definition: definition,
      table: PostgresMachineTable(name: "sm_instances", idColumn: "entity_id", machine: machine, isShared: true),
      mapping: mapping, clock: clock, configuration: configuration, logger: logger)
  }

  /// The definition the instances follow.
  public var definition: StateMachineDefinition<DynamicStateMachine> { engine.definition }

  /// The machine's name in the library's tables.
  public var machine: String { engine.table.machine }

  /// Inserts an instance `id` in the initial configuration at version 0, its deadlines armed (P8).
  public func insert(_ id: String) async throws(StateMachineStoreError) {
    try await engine.insert(DynamicStateMachine(engine.definition), key: id)
  }

  /// A fresh object from the row `id`, or `nil`.
  public func load(_ id: String) async throws(StateMachineStoreError) -> DynamicStateMachine? {
    try await engine.load(id)
  }

  /// Fires `event` on the row `id`, locked for the step (P3).
  @discardableResult
  public func fire(
    _ event: String, on id: String, payload: (any Encodable & Sendable)? = nil, options: FireOptions = .init()
  ) async throws(StateMachineStoreError) -> Fired<DynamicStateMachine> {
    try await engine.fire(event, key: id, payload: payload, options: options, object: nil)
  }

  /// Puts the row into `state` without callbacks: one history row, deadlines re-armed.
  public func restore(_ id: String, to state: String) async throws(StateMachineStoreError) {
    try await engine.restore(id, to: state)
  }

  /// Moves every row stored in `old` to `new` (P12); see ``PostgresStateMachineStore/migrate(from:to:)``.
  @discardableResult
  public func migrate(from old: String, to new: String) async throws(StateMachineStoreError) -> Int {
    try await engine.migrate(from: old, to: new)
  }

  /// The ids of the rows in `state`, a compound state matching its descendants (P14).
  public func ids(in state: String, after: String? = nil, limit: Int = .max) async throws(StateMachineStoreError)
    -> [String]
  {
    try await engine.ids(in: state, after: after, limit: limit)
  }

  /// Every id, in order.
  public func allIDs() async throws(StateMachineStoreError) -> [String] {
    try await engine.allIDs()
  }

  /// The number of rows in `state` (P14).
  public func count(in state: String) async throws(StateMachineStoreError) -> Int {
    try await engine.count(in: state)
  }

  /// One scheduler pass (P9–P11): passes in any number of processes never fire a deadline twice
  /// (P10); returns how many deadlines were consumed.
  public func fireDueTimeouts(limit: Int = 32) async throws(StateMachineStoreError) -> Int {
    try await engine.fireDueTimeouts(limit: limit)
  }

  /// The committed machine columns of the row `id`.
  public func storedState(of id: String) async throws(StateMachineStoreError) -> StoredMachineState? {
    try await engine.storedState(id)
  }

  /// The row's history, oldest first.
  public func history(of id: String) async throws(StateMachineStoreError) -> [StoredTransition] {
    try await engine.history(of: id)
  }

  /// The row's pending deadlines, earliest first.
  public func deadlines(of id: String) async throws(StateMachineStoreError) -> [StoredDeadline] {
    try await engine.deadlines(of: id)
  }

  /// What is inconsistent with the definition (P12).
  public func verify() async throws(StateMachineStoreError) -> StoreReport {
    try await engine.verify()
  }
}
#endif
