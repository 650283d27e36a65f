// Where the machine columns are in the rows of a step's `SELECT *`: a fire reads them by index,
// as GRDB looks a column up by name by lowercasing names (Persistence §6, the cost of a fire
// inside an application's transaction).

#if SQLite
import Foundation
import GRDB
import StateMachines

/// The indexes of the machine columns in the rows of one statement.
struct SQLiteMachineColumns {
  let state: Int
  let version: Int
  let terminated: Int
  let history: Int

  /// The machine columns of `statement`'s rows: as `stateMachineColumns()` spells them, else
  /// found as GRDB finds a name (case-insensitively).
  init(_ statement: Statement) throws {
    let names = statement.columnNames
    func index(_ name: String) throws -> Int {
      guard let index = names.firstIndex(of: name) ?? statement.index(ofColumn: name) else {
        throw SQLiteStoreFailure("no column '\(name)' in the rows of \(statement.sql)")
      }
      return index
    }
    state = try index("state")
    version = try index("sm_version")
    terminated = try index("sm_terminated")
    history = try index("sm_history")
  }

  /// The machine columns of `row`, a row of the statement (P12: `sm_history` is JSON).
  func machineState(_ row: Row) throws -> StoredMachineState {
    var records: [String: [String]]?
    if let text: String = row[history] {
      records = try JSONDecoder().decode([String: [String]].self, from: Data(text.utf8))
    }
    return StoredMachineState(
      state: row[state], version: row[version], isTerminated: row[terminated], history: records)
  }
}
#endif
