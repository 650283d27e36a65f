// The worker's SQLite database (Persistence §9, SQLite half): one shared file in WAL mode, the
// worker classes as GRDB records in tables of their own.

#if SQLite
import Foundation
import GRDB
import StateMachines
@_spi(Testing) import StateMachinesSQLite

extension Ring: FetchableRecord, PersistableRecord {
  static let databaseTableName = "rings"
}

extension Booking: FetchableRecord, PersistableRecord {
  static let databaseTableName = "bookings"
}

extension Dial: FetchableRecord, PersistableRecord {
  static let databaseTableName = "dials"
}

/// The shared file, opened as every worker opens it.
struct SQLiteWorkerDatabase: WorkerDatabase {
  let pool: DatabasePool

  /// WAL (`DatabasePool`), a busy timeout long enough for the others' transactions, and
  /// `synchronous = NORMAL`, which loses nothing when a process dies (only an OS crash could lose
  /// the last commits), as the tests kill processes, not machines.
  init(path: String) throws {
    var configuration = Configuration()
    configuration.busyMode = .timeout(30)
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
    pool = try DatabasePool(path: path, configuration: configuration)
  }

  func createTables() async throws {
    try await pool.write { db in
      try StateMachineTables.create(in: db)
      try db.create(table: Ring.databaseTableName, ifNotExists: true) { table in
        table.column("id", .integer).primaryKey()
        table.column("enabled", .boolean).notNull()
        table.stateMachineColumns()
      }
      try db.create(table: Booking.databaseTableName, ifNotExists: true) { table in
        table.column("id", .integer).primaryKey()
        table.column("awaitsPayment", .boolean).notNull()
        table.stateMachineColumns()
      }
      try db.create(table: Dial.databaseTableName, ifNotExists: true) { table in
        table.column("id", .integer).primaryKey()
        table.stateMachineColumns()
      }
    }
  }

  func rings(_ arguments: WorkerArguments) throws -> WorkerRings {
    let store = SQLiteStateMachineStore<Ring>(pool, configuration: try Ring.configuration(arguments))
    return WorkerRings(
      store: store, handle: { store.handle($0, $1) },
      onCrashPoint: { name, hook in
        guard let point = StoreCrashPoint(rawValue: name) else { throw WorkerFailure("no crash point '\(name)'") }
        store.onCrashPoint { reached in if reached == point { hook() } }
      })
  }

  func bookings(clock: StoreClock) -> any StateMachineStore<Booking> {
    SQLiteStateMachineStore<Booking>(pool, clock: clock)
  }

  /// The SQLite store writes one fire per transaction: it shares no statement.
  func dials() -> (store: any StateMachineStore<Dial>, sharedStatements: @Sendable () -> Int) {
    (SQLiteStateMachineStore<Dial>(pool), { 0 })
  }
}
#endif
