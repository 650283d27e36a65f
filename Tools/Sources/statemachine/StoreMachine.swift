import Foundation
import StateMachines

/// A machine of a store database: its stored chart, loaded as the tool loads chart files (guards
/// pass, actions do nothing), and the instance store of its rows (SQLite or PostgreSQL). Or an
/// application's own table that its store recorded, with the definition it exported: its rows
/// are read, never fired, as the application's callbacks are not here.
struct StoreMachine {
  let database: any StoreBackend
  let name: String
  let definition: StateMachineDefinition<DynamicStateMachine>
  let store: any StateMachineInstanceStore
  /// Where the rows are.
  let rows: StoredRows

  /// Opens the database, loads the machine's chart and runs `body`; fails when the database is
  /// missing, is not a database, lacks the library's tables or the machine.
  static func with<T>(_ options: StoreOptions, _ body: (StoreMachine) async throws -> T) async throws -> T {
    try await StoreBackends.with(options.db, create: false) { database in
      try await body(try await StoreMachine(database, name: options.machine))
    }
  }

  init(_ database: any StoreBackend, name: String) async throws {
    self.database = database
    self.name = name
    let chart = try await database.storedChart(name)
    let file = DefinitionFile(
      path: "\(database.label)#sm_machines/\(name)", data: Data(chart.document.utf8), format: chart.format)
    definition = try file.load()
    store = database.instances(definition, machine: name)
    rows = .instances(machine: name)
  }

  /// An application's table, read through its recorded definition.
  init(_ database: any StoreBackend, table: MachineTable) throws {
    guard let document = table.document else {
      throw ToolError("error: \(database.label): table '\(table.table)' was recorded without a definition")
    }
    self.database = database
    name = table.machine
    let file = DefinitionFile(
      path: "\(database.label)#sm_machine_tables/\(table.machine)", data: Data(document.utf8), format: "json")
    definition = try file.load()
    // Its history and deadlines are the library's, by machine name, as for `sm_instances`.
    store = database.instances(definition, machine: table.machine)
    rows = .table(table)
  }

  /// Runs a store call; its error becomes a one-line ``ToolError``.
  func call<T>(_ body: () async throws(StateMachineStoreError) -> T) async throws -> T {
    do {
      return try await body()
    } catch {
      throw ToolError("error: \(database.describe(error))")
    }
  }

  /// The committed machine columns of `id`; an unknown id is an error.
  func existing(_ id: String) async throws -> StoredMachineState {
    guard let stored = try await call({ () async throws(StateMachineStoreError) in try await store.storedState(of: id) })
    else { throw ToolError("error: machine '\(name)' has no row with id '\(id)'") }
    return stored
  }
}
