import Foundation
import GRDB
import StateMachines
import StateMachinesSQLite

/// The `store` commands on a SQLite file: each write one `BEGIN IMMEDIATE` transaction, each
/// read one snapshot (Persistence §11).
extension StoreDatabase: StoreBackend {
  var label: String { path }

  func instances(_ definition: StateMachineDefinition<DynamicStateMachine>, machine: String) -> any StateMachineInstanceStore {
    SQLiteInstanceStore(pool, definition: definition, machine: machine)
  }

  func initialize(_ machine: String, chart: StoredChartFile) async throws -> Bool {
    try write { db -> Bool in
      try StateMachineTables.create(in: db)
      let existing = try Row.fetchOne(
        db, sql: "SELECT format, document FROM sm_machines WHERE machine = ?", arguments: [machine])
      if let existing {
        guard existing["format"] == chart.format, existing["document"] == chart.document else {
          throw ToolError(
            "error: \(path): machine '\(machine)' has another chart; `statemachine store migrate` replaces it")
        }
        return false
      }
      try db.execute(
        sql: "INSERT INTO sm_machines (machine, format, document, updated_at) VALUES (?, ?, ?, ?)",
        arguments: [machine, chart.format, chart.document, Int64((Date().timeIntervalSince1970 * 1000).rounded())])
      return true
    }
  }

  func replaceChart(_ machine: String, chart: StoredChartFile, problems: ([InstanceRow]) -> [String]) async throws
    -> (rows: Int, problems: [String])
  {
    try write { db -> (rows: Int, problems: [String]) in
      let rows = try Row.fetchAll(
        db, sql: "SELECT entity_id, state, sm_history FROM sm_instances WHERE machine = ? ORDER BY entity_id",
        arguments: [machine]
      ).map { InstanceRow(id: $0["entity_id"], state: $0["state"], history: $0["sm_history"]) }
      let found = problems(rows)
      guard found.isEmpty else { return (rows.count, found) }
      try db.execute(
        sql: "UPDATE sm_machines SET format = ?, document = ?, updated_at = ? WHERE machine = ?",
        arguments: [chart.format, chart.document, Int64((Date().timeIntervalSince1970 * 1000).rounded()), machine])
      return (rows.count, [])
    }
  }

  func snapshot(_ rows: StoredRows, id: String) async throws -> InstanceSnapshot? {
    let (fromWhere, key, bindsMachine) = rows.selection(quote: \.quotedDatabaseIdentifier)
    let machine = rows.machine
    return try read { db -> InstanceSnapshot? in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT state, sm_version, sm_terminated FROM \(fromWhere) AND \(key) = ?",
          arguments: StatementArguments(bindsMachine ? [machine, id] : [id]))
      else { return nil }
      let deadlines = try Row.fetchAll(
        db, sql: "SELECT state, event, due_at FROM sm_deadlines WHERE machine = ? AND entity_id = ? ORDER BY due_at, id",
        arguments: [machine, id]
      ).map {
        InstanceSnapshot.Deadline(
          state: $0["state"], event: $0["event"], dueAt: Date(timeIntervalSince1970: Double($0["due_at"] as Int64) / 1000))
      }
      return InstanceSnapshot(
        state: row["state"], version: row["sm_version"], terminated: row["sm_terminated"], deadlines: deadlines)
    }
  }

  func states(_ rows: StoredRows) async throws -> [String: String] {
    let (fromWhere, key, bindsMachine) = rows.selection(quote: \.quotedDatabaseIdentifier)
    let machine = rows.machine
    return try read { db in
      try Dictionary(
        Row.fetchAll(
          db, sql: "SELECT \(key) AS entity_id, state FROM \(fromWhere)",
          arguments: StatementArguments(bindsMachine ? [machine] : [])
        ).map { ($0["entity_id"] as String, $0["state"] as String) },
        uniquingKeysWith: { first, _ in first })
    }
  }

  func chartNames() async throws -> [String] {
    try read { db in try String.fetchAll(db, sql: "SELECT machine FROM sm_machines ORDER BY machine") }
  }

  func machineTables() async throws -> [MachineTable] {
    try read { db in
      guard try db.tableExists("sm_machine_tables") else { return [] }
      return try Row.fetchAll(
        db, sql: "SELECT machine, table_name, id_column, document FROM sm_machine_tables ORDER BY machine"
      ).map { MachineTable(machine: $0["machine"], table: $0["table_name"], idColumn: $0["id_column"], document: $0["document"]) }
    }
  }

  func describe(_ error: any Error) -> String {
    Self.describe(error)
  }

  func close() async {
    try? pool.close()
  }
}
