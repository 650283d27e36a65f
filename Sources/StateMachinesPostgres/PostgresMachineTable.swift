// Where a store's rows live: the application's own table (a `@StateMachine` record) or the
// store-owned `sm_instances`. The step engine reads and writes rows only through this
// description, so both kinds share one transaction path.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

/// The table of a store's rows and how one row is addressed.
struct PostgresMachineTable: Sendable {
  /// The table's name.
  let name: String
  /// The column of the row's id.
  let idColumn: String
  /// The machine's name in the library's tables (`machine` columns).
  let machine: String
  /// Whether the table holds several machines' rows (`sm_instances`), told apart by `machine`.
  let isShared: Bool

  static let machineColumns: Set<String> = ["state", "sm_version", "sm_terminated", "sm_history"]

  var quotedName: String { name.quotedIdentifier }
  var quotedID: String { idColumn.quotedIdentifier }

  /// The condition that selects the row with `key`, whose id column has SQL type `idType`: the
  /// key is bound as text and cast, so that the id column's index is used.
  func row(_ key: String, idType: String, _ statement: inout PostgresStatement) -> String {
    if isShared {
      return "machine = \(statement.bind(machine)) AND entity_id = \(statement.bind(key))"
    }
    return "\(quotedID) = CAST(\(statement.bind(key)) AS \(idType))"
  }

  /// The condition that selects every row of the machine.
  func allRows(_ statement: inout PostgresStatement) -> String {
    isShared ? "machine = \(statement.bind(machine))" : "TRUE"
  }

  /// The id as text, for the library's `entity_id` columns.
  var keyExpression: String { "CAST(\(quotedID) AS text)" }

  /// The select list of a full row: the own columns, then the machine columns, then the key.
  func selectList(_ own: [String]) -> String {
    (own.map(\.quotedIdentifier) + ["state", "sm_version", "sm_terminated", "sm_history::text", keyExpression])
      .joined(separator: ", ")
  }

  /// The machine columns of a row selected with ``selectList(_:)``, after `offset` own columns.
  static func machineState(_ row: PostgresRow, offset: Int) throws -> StoredMachineState {
    let cells = row.makeRandomAccess()
    var history: [String: [String]]?
    if let text = try cells[offset + 3].decode(String?.self) {
      history = try JSONDecoder().decode([String: [String]].self, from: Data(text.utf8))
    }
    return StoredMachineState(
      state: try cells[offset].decode(String.self), version: try cells[offset + 1].decode(Int64.self),
      isTerminated: try cells[offset + 2].decode(Bool.self), history: history)
  }

  /// The key of a row selected with ``selectList(_:)``.
  static func key(_ row: PostgresRow, offset: Int) throws -> String {
    try row.makeRandomAccess()[offset + 4].decode(String.self)
  }

  /// Binds the machine columns' values, in the order state, version, terminated, history; the
  /// history as JSON text, cast to `jsonb` in the statement.
  static func bind(_ machine: StoredMachineState, _ statement: inout PostgresStatement) throws -> [String] {
    let history = try machine.history.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    return [
      statement.bind(machine.state), statement.bind(machine.version), statement.bind(machine.isTerminated),
      "CAST(\(statement.bind(history)) AS jsonb)",
    ]
  }
}
#endif
