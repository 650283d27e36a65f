// The SQLite store of run-time definitions (JSON, SCXML): `DynamicStateMachine` rows in the
// store-owned `sm_instances` table, one machine name per definition (PERSISTENCE.md §11). The
// same step engine as the record store, so every rule holds for both.

#if SQLite
import Foundation
import GRDB
import StateMachines

/// A store of `DynamicStateMachine` instances of one run-time definition, kept in
/// the library's `sm_instances` table under a machine name.
///
/// It keeps every rule of ``SQLiteStateMachineStore`` (P1–P16); ids are strings. The
/// `statemachine store` commands are built on it.
public final class SQLiteInstanceStore: @unchecked Sendable {
  let engine: SQLiteStepEngine<DynamicStateMachine>

  /// A store of `definition`'s instances named `machine`. Create the library's tables first
  /// (``StateMachineTables/create(in:)``).
  public init(
    _ writer: any DatabaseWriter, definition: StateMachineDefinition<DynamicStateMachine>, machine: String,
    clock: StoreClock = .system, configuration: StoreConfiguration<DynamicStateMachine> = .init()
  ) {
    let mapping = SQLiteRowMapping<DynamicStateMachine>(
      decode: { _ in DynamicStateMachine(definition) }, columns: { _ in [:] })
    engine = SQLiteStepEngine(
      writer: writer, definition: definition, table: .instances(machine: machine), mapping: mapping, clock: clock,
      configuration: configuration)
  }

  /// The definition the instances follow.
  public var definition: StateMachineDefinition<DynamicStateMachine> { engine.definition }

  /// Inserts an instance `id` in the initial configuration at version 0, its deadlines armed.
  public func insert(_ id: String) async throws(StateMachineStoreError) {
    try await engine.insert(DynamicStateMachine(engine.definition), key: id)
  }

  /// A fresh object from the row `id`, or `nil`.
  public func load(_ id: String) async throws(StateMachineStoreError) -> DynamicStateMachine? {
    try await engine.load(id)
  }

  /// Fires `event` on the row `id` (P3).
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

  /// Moves every row stored in `old` to `new` (P12); see `SQLiteStateMachineStore.migrate(from:to:)`.
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

  /// One scheduler pass (P9–P11); returns how many deadlines were consumed.
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
