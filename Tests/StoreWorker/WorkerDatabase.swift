// The database a worker works on, chosen by `--db`: a `postgres://` URL (the PostgreSQL store,
// with `--schema`) or the path of an SQLite file (the SQLite store). The modes see only the core
// `StateMachineStore` protocol, so that both stores run the same races, kills and restarts
// (Persistence §9).

#if SQLite || PostgreSQL
import Foundation
import StateMachines

/// The stores and tables of one database.
protocol WorkerDatabase: Sendable {
  /// Creates the library's tables and the workers' own ones, where missing.
  func createTables() async throws
  /// A store of rings configured by ``Ring/configuration(_:)``.
  func rings(_ arguments: WorkerArguments) throws -> WorkerRings
  /// A store of bookings with deadlines on `clock`.
  func bookings(clock: StoreClock) -> any StateMachineStore<Booking>
  /// A store of dials, and how many of its statements carried more than one fire so far.
  func dials() -> (store: any StateMachineStore<Dial>, sharedStatements: @Sendable () -> Int)
}

/// A ring store, with what its concrete type adds to the protocol.
struct WorkerRings {
  let store: any StateMachineStore<Ring>
  /// Registers the outbox handler of a topic (P16).
  let handle: (String, @escaping @Sendable (OutboxMessage) async throws -> Void) -> Void
  /// Calls the hook when a step reaches the named crash point (Persistence §9); throws if the
  /// store has no such point.
  let onCrashPoint: (String, @escaping @Sendable () -> Void) throws -> Void
}

/// The database `--db` names.
func openDatabase(_ arguments: WorkerArguments) throws -> any WorkerDatabase {
  let db = try arguments.string("db")
  if db.hasPrefix("postgres://") || db.hasPrefix("postgresql://") {
    #if PostgreSQL
    return try PostgresWorkerDatabase(url: db, schema: try arguments.string("schema"), name: arguments.optional("name"))
    #else
    throw WorkerFailure("sm-store-worker was built without the PostgreSQL trait")
    #endif
  }
  #if SQLite
  return try SQLiteWorkerDatabase(path: db)
  #else
  throw WorkerFailure("sm-store-worker was built without the SQLite trait")
  #endif
}
#endif
