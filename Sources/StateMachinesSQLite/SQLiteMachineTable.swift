// Where a store's rows live: the application's own table (a `@StateMachine` record) or the
// store-owned `sm_instances` (a run-time definition). The step engine reads and writes rows only
// through this description, so both kinds share one transaction path.

#if SQLite
import Foundation
import GRDB
import StateMachines

/// The table of a store's rows and how one row is addressed.
struct SQLiteMachineTable: Sendable {
  /// The table's name.
  let name: String
  /// The column of the row's id.
  let idColumn: String
  /// The machine's name in the library's tables (`machine` columns).
  let machine: String
  /// Whether the table holds several machines' rows (`sm_instances`), told apart by `machine`.
  let isShared: Bool

  /// The condition that selects one row, with ``row(_:)``'s arguments.
  let rowSQL: String
  /// The `SELECT *` of one row, built once: every step runs it (Persistence §6).
  let selectRowSQL: String
  /// The compare-and-set of the machine columns alone, built once (the fast path of Persistence §6,
  /// P4): the arguments are ``arguments(_:)``, the row's (``keyArguments(_:)``), then the
  /// version the step read.
  let updateMachineSQL: String

  static let machineColumns: Set<String> = ["state", "sm_version", "sm_terminated", "sm_history"]

  /// The `INSERT` of one history row (P2), built once.
  static let insertHistorySQL =
    "INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, payload, "
    + "request_id, due_at, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

  init(name: String, idColumn: String, machine: String, isShared: Bool) {
    self.name = name
    self.idColumn = idColumn
    self.machine = machine
    self.isShared = isShared
    let quotedName = name.quotedDatabaseIdentifier
    rowSQL = isShared ? "machine = ? AND entity_id = ?" : "\(idColumn.quotedDatabaseIdentifier) = ?"
    selectRowSQL = "SELECT * FROM \(quotedName) WHERE \(rowSQL)"
    updateMachineSQL =
      "UPDATE \(quotedName) SET state = ?, sm_version = ?, sm_terminated = ?, sm_history = ? "
      + "WHERE \(rowSQL) AND sm_version = ?"
  }

  /// The application's own table.
  static func own(_ name: String, idColumn: String, machine: String) -> SQLiteMachineTable {
    SQLiteMachineTable(name: name, idColumn: idColumn, machine: machine, isShared: false)
  }

  /// The store-owned table of run-time definitions.
  static func instances(machine: String) -> SQLiteMachineTable {
    SQLiteMachineTable(name: "sm_instances", idColumn: "entity_id", machine: machine, isShared: true)
  }

  var quotedName: String { name.quotedDatabaseIdentifier }
  var quotedID: String { idColumn.quotedDatabaseIdentifier }

  /// The condition that selects the row with `key`, and its arguments.
  func row(_ key: String) -> (sql: String, arguments: StatementArguments) {
    (rowSQL, keyArguments(key))
  }

  /// The arguments of ``rowSQL``'s placeholders for the row with `key`. Arguments are built from
  /// literals here and below: GRDB's initializer from a sequence runs unspecialised, which a fire
  /// felt (`Benchmarks/README.md`, *The SQLite store*).
  func keyArguments(_ key: String) -> StatementArguments {
    isShared ? [machine, key] : [key]
  }

  /// The condition that selects every row of the machine.
  var allRows: (sql: String, arguments: StatementArguments) {
    isShared ? ("machine = ?", [machine]) : ("1", [])
  }

  /// The machine columns of a row.
  func machineState(_ row: Row) throws -> StoredMachineState {
    var history: [String: [String]]?
    if let text: String = row["sm_history"] {
      history = try JSONDecoder().decode([String: [String]].self, from: Data(text.utf8))
    }
    return StoredMachineState(
      state: row["state"], version: row["sm_version"], isTerminated: row["sm_terminated"], history: history)
  }

  /// The values of the machine columns, in the order of ``machineColumns``' assignments.
  static func arguments(_ machine: StoredMachineState) throws -> StatementArguments {
    [machine.state, machine.version, machine.isTerminated, try historyJSON(machine)]
  }

  /// The arguments of ``updateMachineSQL``, in one list: the machine columns after the step, the
  /// row's key, and the version the step read.
  func updateMachineArguments(_ after: StoredMachineState, key: String, version: Int64) throws -> StatementArguments {
    let history = try Self.historyJSON(after)
    return isShared
      ? [after.state, after.version, after.isTerminated, history, machine, key, version]
      : [after.state, after.version, after.isTerminated, history, key, version]
  }

  /// `sm_history` as JSON (P12), or `nil`.
  private static func historyJSON(_ machine: StoredMachineState) throws -> String? {
    try machine.history.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
  }
}

extension Date {
  /// Milliseconds since the epoch, as SQLite rows keep times.
  var storeMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

  init(storeMilliseconds: Int64) {
    self.init(timeIntervalSince1970: TimeInterval(storeMilliseconds) / 1000)
  }
}
#endif
