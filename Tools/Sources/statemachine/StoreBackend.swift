import Foundation
import StateMachines
import StateMachinesPostgres
import StateMachinesSQLite

/// The database of the `store` commands, SQLite or PostgreSQL (Persistence §11): the library's
/// instance store on it, and the few reads and writes of its own that the commands make (the
/// stored charts, `show`'s snapshot). Both answer alike, so that every command prints the same
/// on either.
protocol StoreBackend {
  /// What error messages name: the file's path, or the URL without its password.
  var label: String { get }

  /// The chart stored under `machine`: its format (`json` or `scxml`) and text.
  func storedChart(_ machine: String) async throws -> (format: String, document: String)

  /// The instance store of `machine`'s rows, following `definition`.
  func instances(_ definition: StateMachineDefinition<DynamicStateMachine>, machine: String) -> any StateMachineInstanceStore

  /// `init`: creates the library's tables when missing and stores `chart` under `machine`;
  /// `false` when the same chart was stored already. Another chart is refused, nothing written.
  func initialize(_ machine: String, chart: StoredChartFile) async throws -> Bool

  /// `migrate`: in one transaction that no step commits into, reads `machine`'s rows and replaces
  /// its chart by `chart` unless `problems` finds any. The number of rows, and the problems.
  func replaceChart(_ machine: String, chart: StoredChartFile, problems: ([InstanceRow]) -> [String]) async throws
    -> (rows: Int, problems: [String])

  /// `show`: the row `id` and its pending deadlines, read in one snapshot; `nil` when there is no row.
  func snapshot(_ rows: StoredRows, id: String) async throws -> InstanceSnapshot?

  /// Every row's state, by id.
  func states(_ rows: StoredRows) async throws -> [String: String]

  /// The machines whose charts `sm_machines` stores, by name.
  func chartNames() async throws -> [String]

  /// The applications' machine tables that their stores recorded (none when the database
  /// predates the catalog).
  func machineTables() async throws -> [MachineTable]

  /// One line saying what `error` is.
  func describe(_ error: any Error) -> String

  /// Closes the connections.
  func close() async
}

/// A row of `sm_instances`, as `migrate` checks it.
struct InstanceRow {
  let id: String
  let state: String
  /// The `sm_history` JSON text.
  let history: String?
}

/// A row as `show` prints it.
struct InstanceSnapshot {
  /// A pending deadline.
  struct Deadline {
    let state: String?
    let event: String
    let dueAt: Date
  }

  let state: String
  let version: Int64
  let terminated: Bool
  let deadlines: [Deadline]
}

/// Opening the database `--db` names.
enum StoreBackends {
  /// Whether `db` is a PostgreSQL URL (`postgres://` or `postgresql://`).
  static func isPostgres(_ db: String) -> Bool {
    db.hasPrefix("postgres://") || db.hasPrefix("postgresql://")
  }

  /// Runs `body` on the database `db`, closed afterwards. Only `init` (`create`) may create the
  /// SQLite file or the library's tables: the other commands refuse a database without them
  /// rather than write to it.
  static func with<T>(_ db: String, create: Bool, _ body: (any StoreBackend) async throws -> T) async throws -> T {
    let backend: any StoreBackend =
      isPostgres(db) ? try await PostgresStoreBackend.open(db, create: create) : try StoreDatabase(db, create: create)
    do {
      let value = try await body(backend)
      await backend.close()
      return value
    } catch {
      await backend.close()
      throw error
    }
  }
}
