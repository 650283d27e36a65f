import Foundation

/// An application's own machine table, as its store recorded it in `sm_machine_tables` (the
/// Inspecting article): the table, its id column and its definition's JSON document.
struct MachineTable {
  /// The machine's name in the library's tables (history, deadlines).
  let machine: String
  let table: String
  let idColumn: String
  /// Our JSON definition format; `nil` when the definition could not be exported.
  let document: String?
}

/// Whose rows a command reads: a machine of the store-owned `sm_instances`, or an application's
/// own table. The history and deadlines of both are in the library's tables, by machine name.
enum StoredRows {
  case instances(machine: String)
  case table(MachineTable)

  /// The machine's name in the library's tables.
  var machine: String {
    switch self {
    case .instances(let machine): machine
    case .table(let table): table.machine
    }
  }

  /// The `FROM` and `WHERE` of the rows (`quote` quotes an identifier), the expression of a row's
  /// id as text, and whether the condition takes the machine's name as its one argument.
  func selection(quote: (String) -> String) -> (fromWhere: String, id: String, bindsMachine: Bool) {
    switch self {
    case .instances:
      ("sm_instances WHERE machine = ?", "entity_id", true)
    case .table(let table):
      ("\(quote(table.table)) WHERE 1 = 1", "CAST(\(quote(table.idColumn)) AS TEXT)", false)
    }
  }
}
