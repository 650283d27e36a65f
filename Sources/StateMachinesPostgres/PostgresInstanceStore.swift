// The PostgreSQL store of run-time definitions (JSON, SCXML): `DynamicStateMachine` rows in the
// store-owned `sm_instances` table, one machine name per definition (Persistence §11). The
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
///
/// It is `Sendable` (`@unchecked`: its one stored property is a `let`, its engine, whose mutable
/// fields are guarded by the engine's lock).
public final class PostgresInstanceStore: StateMachineInstanceStore, _StoreEngineBacked, @unchecked Sendable {
  let engine: PostgresStepEngine<DynamicStateMachine>
  /// The engine the `StateMachineInstanceStore` members forward to.
  public var _engine: any _StoreEngine<DynamicStateMachine> { engine }

  /// A store of `definition`'s instances named `machine`, with deadlines on `clock` (by default
  /// the database's, P15). The `PostgresClient` must be running. `options` are those of
  /// ``PostgresStateMachineStore``.
  public init(
    _ client: PostgresClient, definition: StateMachineDefinition<DynamicStateMachine>, machine: String,
    clock: StoreClock = .database, configuration: StoreConfiguration<DynamicStateMachine> = .init(),
    options: PostgresStoreOptions = .init(), logger: Logger = PostgresStepLogger.logger
  ) {
    // No own columns: a row is the machine columns alone, keyed by (machine, entity_id).
    let mapping = PostgresRowMapping<DynamicStateMachine>(
      columns: [], decode: { _ in DynamicStateMachine(definition) }, bindings: { _ in PostgresBindings() })
    engine = PostgresStepEngine(
      client: client, definition: definition,
      table: PostgresMachineTable(name: "sm_instances", idColumn: "entity_id", machine: machine, isShared: true),
      mapping: mapping, clock: clock, configuration: configuration, logger: logger, options: options)
  }

  /// The machine's name in the library's tables.
  public var machine: String { engine.table.machine }
}
#endif
