// The conformance suite's SQLite stores: a new database file per test (a real SQLite file in WAL
// mode, Persistence §9), one table per persisted class, created as an application would.

#if SQLite
import Foundation
import GRDB
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesSQLite

/// A persisted test class as a GRDB record, with the table an application would create for it.
protocol SQLiteTestRecord: StoreManagedStateMachine, FetchableRecord, EncodableRecord, TableRecord, Codable {
  /// The class's own columns (the id first); the machine columns are added to them.
  static func ownColumns(_ table: TableDefinition)
}

extension StoreOrder: SQLiteTestRecord {
  static func ownColumns(_ table: TableDefinition) {
    table.column("id", .integer).primaryKey()
    table.column("shippable", .boolean).notNull()
    table.column("payments", .integer).notNull()
    table.column("failOnEntry", .boolean).notNull()
  }
}

extension StorePlayer: SQLiteTestRecord {
  static func ownColumns(_ table: TableDefinition) { table.column("id", .integer).primaryKey() }
}

extension StoreRing: SQLiteTestRecord {
  static func ownColumns(_ table: TableDefinition) {
    table.column("id", .integer).primaryKey()
    table.column("enabled", .boolean).notNull()
  }
}

extension StoreSwitch: SQLiteTestRecord {
  static func ownColumns(_ table: TableDefinition) {
    table.column("id", .integer).primaryKey()
    table.column("jams", .integer).notNull()
  }
}

extension StoreKiosk: SQLiteTestRecord {
  static func ownColumns(_ table: TableDefinition) { table.column("id", .integer).primaryKey() }
}

/// A database file of its own, in WAL mode, with the library's tables.
func makeTestDatabase() throws -> DatabasePool {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("sm-store-\(UUID().uuidString).sqlite").path
  var configuration = Configuration()
  configuration.busyMode = .timeout(10)
  let pool = try DatabasePool(path: path, configuration: configuration)
  try pool.write { db in try StateMachineTables.create(in: db) }
  return pool
}

/// Makes SQLite stores for the conformance suite, all on one new database file.
struct SQLiteStoreFactory: StoreFactory {
  let pool: DatabasePool

  init() {
    do {
      pool = try makeTestDatabase()
    } catch {
      fatalError("cannot create a test database: \(error)")
    }
  }

  func makeStore<Model: StoreManagedStateMachine & Codable>(
    _ type: Model.Type, clock: StoreClock, outbox: [String]
  ) async throws -> any StateMachineStore<Model> {
    guard let record = Model.self as? any SQLiteTestRecord.Type else {
      throw SQLiteTestFailure("\(Model.self) is not a SQLiteTestRecord")
    }
    let store: Any = try open(record, clock: clock, outbox: outbox)
    return store as! any StateMachineStore<Model>
  }

  private func open<Record: SQLiteTestRecord>(_ type: Record.Type, clock: StoreClock, outbox: [String]) throws -> Any {
    try pool.write { db in
      try db.create(table: Record.databaseTableName, ifNotExists: true) { table in
        Record.ownColumns(table)
        table.stateMachineColumns()
      }
    }
    var configuration = StoreConfiguration<Record>()
    for event in outbox {
      configuration.outbox(after: event, topic: event) { _, transition in ["from": transition.from, "to": transition.to] }
    }
    return SQLiteStateMachineStore<Record>(pool, clock: clock, configuration: configuration)
  }

  func handle<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void
  ) {
    (store as? any SQLiteHandling)?.register(topic, handler)
  }

  func overwrite<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, id: Model.StoreID, with machine: StoredMachineState
  ) async throws {
    guard let record = Model.self as? any SQLiteTestRecord.Type else { return }
    let table = record.databaseTableName
    let history = try machine.history.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE \(table.quotedDatabaseIdentifier) SET state = ?, sm_version = ?, sm_terminated = ?, sm_history = ? WHERE id = ?",
        arguments: [machine.state, machine.version, machine.isTerminated, history, id.description])
    }
  }
}

/// Registers outbox handlers on any SQLite store, whatever its class.
protocol SQLiteHandling {
  func register(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void)
}

extension SQLiteStateMachineStore: SQLiteHandling {
  func register(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    handle(topic, handler)
  }
}

struct SQLiteTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
#endif
