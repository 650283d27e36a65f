import Foundation
import GRDB
import StateMachines
import StateMachinesSQLite

/// The SQLite database of the `store` commands: a file opened as a GRDB `DatabasePool` (WAL),
/// waiting for other processes' write locks, so that any number of commands can run at once on
/// one file (Persistence §11).
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

  /// The file `--db` names: `PATH` or `sqlite:PATH`.
  static func path(of db: String) throws -> String {
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
  func storedChart(_ machine: String) async throws -> (format: String, document: String) {
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
