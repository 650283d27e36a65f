// The SQLite store of `@StateMachine` record classes: rows in the application's own table, whose
// machine columns the store owns (Persistence §4.2).

#if SQLite
import Foundation
import GRDB
import StateMachines

/// A `StateMachineStore` on a SQLite database, through GRDB: the embedded default.
///
/// The objects are GRDB records kept in the application's own table, which has the machine
/// columns (`stateMachineColumns()`); the library's tables are created by
/// ``StateMachineTables/create(in:)`` or a migration (`registerStateMachineTables()`).
/// Every step is one `BEGIN IMMEDIATE` transaction, which takes SQLite's one write lock: processes
/// sharing the database file take turns, and each fire evaluates its event against the row as
/// the last writer committed it (P1, P3). Open the database with a busy timeout
/// (`Configuration.busyMode = .timeout(…)`) so that processes wait for each other rather than
/// fail, and in WAL mode (`DatabasePool`) so that readers never wait.
///
/// ```swift
/// let orders = SQLiteStateMachineStore<Order>(dbPool)
/// try await orders.insert(Order(id: 42))
/// try await orders.fire("pay", on: 42)
/// try await dbPool.write { db in
///   try Invoice(orderID: 42).insert(db)
///   try orders.fire("ship", on: 42, in: db)   // `after` runs once this write commits
/// }
/// ```
///
/// It is `Sendable` (`@unchecked`: its stored properties are `let`s, its engine, whose mutable
/// fields are guarded by the engine's lock, and a serial queue; `Model` need not be `Sendable`,
/// as objects cross tasks only in hand-offs made for one step).
public final class SQLiteStateMachineStore<Model>: StateMachineStore, _StoreEngineBacked, @unchecked Sendable
where Model: StoreManagedStateMachine & FetchableRecord & EncodableRecord & TableRecord {
  let engine: SQLiteStepEngine<Model>
  /// The engine the `StateMachineStore` members forward to.
  public var _engine: any _StoreEngine<Model> { engine }
  /// Runs the held-back callbacks of steps fired inside the application's own transactions, in
  /// order, off GRDB's writer queue (a write from an `after` callback would deadlock on it).
  private let committedWork = DispatchQueue(label: "StateMachinesSQLite.committed")

  /// A store of `Model`'s rows in `table` (by default the record's table), addressed by
  /// `idColumn`, named `machine` in the library's tables (by default the table's name).
  ///
  /// The store records the table and its definition's JSON document in the library's
  /// `sm_machine_tables` (when the library's tables exist), so that `statemachine inspect --db`
  /// shows the rows without the application's code.
  public init(
    _ writer: any DatabaseWriter, definition: StateMachineDefinition<Model> = Model.stateMachine,
    table: String = Model.databaseTableName, idColumn: String = "id", machine: String? = nil,
    clock: StoreClock = .system, configuration: StoreConfiguration<Model> = .init()
  ) {
    let machineTable = SQLiteMachineTable.own(table, idColumn: idColumn, machine: machine ?? table)
    engine = SQLiteStepEngine(
      writer: writer, definition: definition, table: machineTable, mapping: .record, clock: clock,
      configuration: configuration)
    SQLiteMachineTableCatalog.record(machineTable, definition: definition, in: writer)
  }

  /// Registers the handler of an outbox topic (P16): it gets each message at least once, so it
  /// must be idempotent (use the message's id).
  public func handle(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    engine.handle(topic, handler)
  }

  /// Calls `hook` at each crash point of every transaction (Persistence §9 kills the process there).
  @_spi(Testing) public func onCrashPoint(_ hook: @escaping @Sendable (StoreCrashPoint) -> Void) {
    engine.lock.withLock { engine.crashHook = hook }
  }

  /// Fires `event` on the row with `id` inside the application's own transaction (a GRDB
  /// `write`), so that the step commits or rolls back with the application's writes (P1). The
  /// step's `after` callbacks, observers and streams run once that transaction has committed,
  /// never if it rolls back (P5); they run asynchronously, in the order of the steps.
  ///
  /// - Throws: `StateMachineStoreError`; the application decides whether its transaction goes on.
  @discardableResult
  public func fire(
    _ event: String, on id: Model.StoreID, payload: (any Encodable & Sendable)? = nil, requestID: UUID? = nil,
    in db: Database
  ) throws(StateMachineStoreError) -> Fired<Model> {
    guard db.isInsideTransaction else {
      throw .database(SQLiteStoreFailure("fire(_:on:in:) runs inside a transaction: call it within `write`"))
    }
    let key = id.description
    let written: SQLiteStepEngine<Model>.Written
    // A replay, a refusal before any write and the fast path (Persistence §6) need no savepoint:
    // what they throw left nothing written.
    switch try engine.prepare(db, event, key: key, payload: payload, requestID: requestID, expected: nil, on: nil) {
    case .done(let done):
      written = done
    case .full(let row):
      try SQLiteStoreFailure.database(key) { try db.cached("SAVEPOINT sm_fire") }
      do {
        written = try engine.fullStep(db, event, row, key: key, payload: payload, requestID: requestID, on: nil)
      } catch {
        // Nothing of a refused or failed step stays in the application's transaction.
        try? db.execute(sql: "ROLLBACK TO SAVEPOINT sm_fire")
        try? db.execute(sql: "RELEASE SAVEPOINT sm_fire")
        throw error
      }
      try SQLiteStoreFailure.database(key) { try db.cached("RELEASE SAVEPOINT sm_fire") }
    }
    if let step = written.step, step.holdsWork {
      let queue = committedWork
      db.afterNextTransaction { _ in queue.async { step.committed() } }
    }
    return written.fired
  }

  /// Fires `event` on the row with `id` inside the application's own transaction (a GRDB
  /// `write`), by its compiler-checked name: `try orders.fire(.ship, on: 42, in: db)`.
  @discardableResult
  public func fire(
    _ event: Model.EventName, on id: Model.StoreID, payload: (any Encodable & Sendable)? = nil, requestID: UUID? = nil,
    in db: Database
  ) throws(StateMachineStoreError) -> Fired<Model> {
    try fire(event.rawValue, on: id, payload: payload, requestID: requestID, in: db)
  }
}
#endif
