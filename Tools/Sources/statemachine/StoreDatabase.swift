import Foundation
import GRDB
import StateMachines
import StateMachinesSQLite

/// The database of the `store` commands: a SQLite file opened as a GRDB `DatabasePool` (WAL),
/// waiting for other processes' write locks, so that any number of commands can run at once on
/// one file (PERSISTENCE.md §11).
struct StoreDatabase {
  /// The file.
  let path: String
  let pool: DatabasePool

  /// How long a command waits for another process's write lock before it fails (SQLITE_BUSY).
  /// `STATEMACHINE_BUSY_TIMEOUT` (seconds) overrides it, so that tests can see a locked database.
  static var busyTimeout: TimeInterval {
    ProcessInfo.processInfo.environment["STATEMACHINE_BUSY_TIMEOUT"].flatMap(TimeInterval.init) ?? 30
  }

  /// The library's tables, which every command but `init` needs.
  static let tables = ["sm_transitions", "sm_deadlines", "sm_outbox", "sm_instances", "sm_machines"]

  /// The file `--db` names: `PATH` or `sqlite:PATH`; a PostgreSQL URL is refused for now.
  static func path(of db: String) throws -> String {
    if db.hasPrefix("postgres://") || db.hasPrefix("postgresql://") {
      throw ToolError("error: PostgreSQL is not supported yet")
    }
    var path = db
    if path.hasPrefix("sqlite:") {
      path.removeFirst("sqlite:".count)
      if path.hasPrefix("//") { path.removeFirst(2) }
    }
    guard !path.isEmpty else { throw ToolError("error: --db '\(db)' names no file") }
    return path
  }

  /// Opens `db`. Only `init` (`create`) may create the file or the library's tables: the other
  /// commands refuse a missing file, or one without the tables, rather than write to it.
  init(_ db: String, create: Bool) throws {
    path = try Self.path(of: db)
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if isDirectory.boolValue { throw ToolError("error: \(path): is a directory, not a database file") }
    if !exists && !create {
      throw ToolError("error: \(path): no such database (`statemachine store init` creates it)")
    }
    if !create { try Self.checkTables(path) }
    var configuration = Configuration()
    configuration.busyMode = .timeout(Self.busyTimeout)
    do {
      pool = try DatabasePool(path: path, configuration: configuration)
    } catch {
      throw ToolError("error: \(path): \(Self.describe(error))")
    }
  }

  /// Refuses a file without the library's tables before the pool opens it: opening a pool
  /// switches the file to WAL, which would write to a database that is not ours.
  private static func checkTables(_ path: String) throws {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(busyTimeout)
    let missing: [String]
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      missing = try queue.read(missingTables)
      try queue.close()
    } catch {
      throw ToolError("error: \(path): \(describe(error))")
    }
    guard missing.isEmpty else {
      throw ToolError(
        "error: \(path): not a statemachine store (no table \(missing.joined(separator: ", "))); "
          + "`statemachine store init` creates the tables")
    }
  }

  /// One line saying what `error` is: SQLite's own message for a database error (without the SQL).
  static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
      return "SQLite error \(error.resultCode.rawValue): \(oneLine(error.message ?? "\(error.resultCode)"))"
    }
    if let error = error as? StateMachineStoreError {
      switch error {
      case .database(let underlying): return "database error: \(describe(underlying))"
      case .locked: return "the database is locked by another writer (SQLITE_BUSY)"
      default: return oneLine(error.description)
      }
    }
    if let error = error as? ToolError { return error.description }
    return oneLine("\(error)")
  }

  /// Reads in one snapshot; a database error becomes a ``ToolError``.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try pool.read(body)
    } catch let error as ToolError {
      throw error
    } catch {
      throw ToolError("error: \(path): \(Self.describe(error))")
    }
  }

  /// Runs `body` in one `BEGIN IMMEDIATE` transaction, rolled back when it throws.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try pool.writeWithoutTransaction { db in
        var result: T?
        try db.inTransaction(.immediate) {
          result = try body(db)
          return .commit
        }
        return result!
      }
    } catch let error as ToolError {
      throw error
    } catch {
      throw ToolError("error: \(path): \(Self.describe(error))")
    }
  }

  /// The tables missing from the database, of ``tables``.
  static func missingTables(_ db: Database) throws -> [String] {
    try tables.filter { try !db.tableExists($0) }
  }

  /// The chart stored under `machine`: its format (`json` or `scxml`) and text.
  func storedChart(_ machine: String) throws -> (format: String, document: String) {
    try read { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT format, document FROM sm_machines WHERE machine = ?", arguments: [machine])
      else {
        throw ToolError("error: \(path): no machine '\(machine)' (`statemachine store init` stores its chart)")
      }
      return (row["format"], row["document"])
    }
  }
}

/// A machine of a store database: its stored chart, loaded as the tool loads chart files (guards
/// pass, actions do nothing), and the ``SQLiteInstanceStore`` of its instances.
struct StoreMachine {
  let database: StoreDatabase
  let name: String
  let definition: StateMachineDefinition<DynamicStateMachine>
  let store: SQLiteInstanceStore

  /// Opens the database and loads the machine's chart; fails when the file is missing, is not a
  /// database, lacks the library's tables or the machine.
  init(_ options: StoreOptions) throws {
    database = try StoreDatabase(options.db, create: false)
    name = options.machine
    let chart = try database.storedChart(name)
    let file = DefinitionFile(
      path: "\(database.path)#sm_machines/\(name)", data: Data(chart.document.utf8), format: chart.format)
    definition = try file.load()
    store = SQLiteInstanceStore(database.pool, definition: definition, machine: name)
  }

  /// Runs a store call; its error becomes a one-line ``ToolError``.
  func call<T>(_ body: () async throws(StateMachineStoreError) -> T) async throws -> T {
    do {
      return try await body()
    } catch {
      throw ToolError("error: \(StoreDatabase.describe(error))")
    }
  }

  /// The committed machine columns of `id`; an unknown id is an error.
  func existing(_ id: String) async throws -> StoredMachineState {
    guard let stored = try await call({ () async throws(StateMachineStoreError) in try await store.storedState(of: id) })
    else { throw ToolError("error: machine '\(name)' has no row with id '\(id)'") }
    return stored
  }
}
