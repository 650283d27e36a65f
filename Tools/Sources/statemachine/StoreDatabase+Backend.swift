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

  func snapshot(_ machine: String, id: String) async throws -> InstanceSnapshot? {
    try read { db -> InstanceSnapshot? in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT state, sm_version, sm_terminated FROM sm_instances WHERE machine = ? AND entity_id = ?",
          arguments: [machine, id])
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

  func states(_ machine: String) async throws -> [String: String] {
    try read { db in
      try Dictionary(
        Row.fetchAll(db, sql: "SELECT entity_id, state FROM sm_instances WHERE machine = ?", arguments: [machine])
          .map { ($0["entity_id"] as String, $0["state"] as String) },
        uniquingKeysWith: { first, _ in first })
    }
  }

  func describe(_ error: any Error) -> String {
    Self.describe(error)
  }

  func close() async {
    try? pool.close()
  }
}
