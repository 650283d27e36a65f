// How an application's class maps its own columns (Persistence §4.2): the class names its
// table and columns, decodes a row and binds its values; the store adds the machine columns
// (`state`, `sm_version`, `sm_terminated`, `sm_history`) that it owns.

#if PostgreSQL
import PostgresNIO
import StateMachines

/// A `@StateMachine` class whose rows live in the application's own PostgreSQL table.
///
/// The store selects ``postgresColumns`` first, in order, then its machine columns, so
/// ``init(postgresRow:)`` decodes the leading columns positionally:
///
/// ```swift
/// extension Order: PostgresStateMachineRecord {
///   static let postgresTableName = "orders"
///   static let postgresColumns = ["id", "total"]
///   convenience init(postgresRow row: PostgresRow) throws {
///     let (id, total) = try row.decode((Int, Int).self)
///     self.init(id: id, total: total)
///   }
///   func postgresBindings() throws -> PostgresBindings {
///     var binds = PostgresBindings()
///     binds.append(id)
///     binds.append(total)
///     return binds
///   }
/// }
/// ```
public protocol PostgresStateMachineRecord: StoreManagedStateMachine {
  /// The table of the rows (unquoted; resolved through the connection's `search_path`).
  static var postgresTableName: String { get }
  /// The column of the row's id; by default `id`.
  static var postgresIDColumn: String { get }
  /// The class's own columns, the id among them, without the machine columns.
  static var postgresColumns: [String] { get }
  /// A new object from a row whose leading columns are ``postgresColumns``, in order; the
  /// store loads its machine state afterwards.
  init(postgresRow row: PostgresRow) throws
  /// The values of ``postgresColumns``, in the same order.
  func postgresBindings() throws -> PostgresBindings
}

extension PostgresStateMachineRecord {
  public static var postgresIDColumn: String { "id" }
}

/// Reads and writes the application's columns of a row; the machine columns are the store's.
struct PostgresRowMapping<Model: StateMachineObject & SendableMetatype>: Sendable {
  /// The own columns, in the order of ``decode`` and ``bindings``.
  let columns: [String]
  /// A new object from a row whose leading columns are ``columns``.
  let decode: @Sendable (PostgresRow) throws -> Model
  /// The values of ``columns``.
  let bindings: @Sendable (Model) throws -> PostgresBindings
}

extension PostgresRowMapping where Model: PostgresStateMachineRecord {
  /// The mapping a record declares.
  static var record: PostgresRowMapping {
    PostgresRowMapping(
      columns: Model.postgresColumns, decode: { try Model(postgresRow: $0) }, bindings: { try $0.postgresBindings() })
  }
}
#endif
