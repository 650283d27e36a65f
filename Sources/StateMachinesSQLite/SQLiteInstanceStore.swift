// The SQLite store of run-time definitions (JSON, SCXML): `DynamicStateMachine` rows in the
// store-owned `sm_instances` table, one machine name per definition (Persistence §11). The
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
///
/// It is `Sendable` (`@unchecked`: its one stored property is a `let`, its engine, whose mutable
/// fields are guarded by the engine's lock).
public final class SQLiteInstanceStore: StateMachineInstanceStore, _StoreEngineBacked, @unchecked Sendable {
  let engine: SQLiteStepEngine<DynamicStateMachine>
  /// The engine the `StateMachineInstanceStore` members forward to.
  public var _engine: any _StoreEngine<DynamicStateMachine> { engine }

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
}
#endif
