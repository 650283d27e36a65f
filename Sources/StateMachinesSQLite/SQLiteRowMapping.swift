// How a store turns a row into an object and an object's own columns back into values: GRDB's
// record protocols for a `@StateMachine` class, nothing at all for a run-time definition.

#if SQLite
import GRDB
import StateMachines

/// Reads and writes the application's columns of a row; the machine columns are the store's.
struct SQLiteRowMapping<Model: StateMachineObject & SendableMetatype>: Sendable {
  /// A new object from a row's own columns (its machine storage is then loaded separately).
  let decode: @Sendable (Row) throws -> Model
  /// The object's own columns, without the machine columns.
  let columns: @Sendable (Model) throws -> [String: DatabaseValue]

  /// A copy of an object the caller holds, so that the store never changes it.
  func copy(_ model: Model) throws -> Model {
    try decode(Row(try columns(model)))
  }
}

extension SQLiteRowMapping where Model: FetchableRecord & EncodableRecord {
  /// A GRDB record: decoded with `init(row:)`, encoded with its `databaseDictionary`.
  static var record: SQLiteRowMapping {
    SQLiteRowMapping(
      decode: { try Model(row: $0) },
      columns: { model in
        try model.databaseDictionary.filter { !SQLiteMachineTable.machineColumns.contains($0.key) }
      })
  }
}
#endif
