// The PostgreSQL store of `@StateMachine` record classes: rows in the application's own table,
// whose machine columns the store owns (Persistence §4.2), shared by any number of
// application servers.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import StateMachines

/// A `StateMachineStore` on PostgreSQL, through postgres-nio: many processes on one table.
///
/// The objects are ``PostgresStateMachineRecord`` classes kept in the application's own table,
/// which has the machine columns (``PostgresStateMachineTables/addMachineColumns(to:on:logger:)``);
/// the library's tables are created by ``PostgresStateMachineTables/create(on:logger:)``. The
/// `PostgresClient` must be running (`client.run()`, or as a ServiceLifecycle service).
///
/// A fire by id is one transaction that locks the row with `SELECT … FOR UPDATE`, so it
/// evaluates its event against the row as the last writer committed it (P1, P3); a fire on an
/// object writes by compare-and-set on its version (P4). Scheduler passes in any number of
/// processes fire each due deadline exactly once, without waiting on each other (P10). By
/// default deadlines are dated by the database's `now()`, one clock for every server (P15).
///
/// ```swift
/// let orders = PostgresStateMachineStore<Order>(client)
/// try await orders.insert(Order(id: 42))
/// try await orders.fire("pay", on: 42)
/// ```
///
/// It is `Sendable` (`@unchecked`: its one stored property is a `let`, its engine, whose mutable
/// fields are guarded by the engine's lock; `Model` need not be `Sendable`, as objects cross
/// tasks only in hand-offs made for one step).
public final class PostgresStateMachineStore<Model>: StateMachineStore, _StoreEngineBacked, @unchecked Sendable
where Model: PostgresStateMachineRecord {
  let engine: PostgresStepEngine<Model>
  /// The engine the `StateMachineStore` members forward to.
  public var _engine: any _StoreEngine<Model> { engine }

  /// A store of `Model`'s rows in `table` (by default the record's table), named `machine` in
  /// the library's tables (by default the table's name), with deadlines on `clock` (by default
  /// the database's); its steps wake sleeping schedulers as `notifications` say (Persistence §7).
  ///
  /// `options` say how the store uses its connections: statements prepared once per
  /// connection and concurrent fast fires batched (the defaults), `pgbouncer` behind a
  /// transaction-pooling PgBouncer before 1.21, a lock timeout per step (Many application servers).
  ///
  /// Once the client runs, the store records the table and its definition's JSON document in the
  /// library's `sm_machine_tables`, so that `statemachine inspect --db` shows the rows without
  /// the application's code.
  public init(
    _ client: PostgresClient, definition: StateMachineDefinition<Model> = Model.stateMachine,
    table: String = Model.postgresTableName, machine: String? = nil, clock: StoreClock = .database,
    configuration: StoreConfiguration<Model> = .init(), notifications: PostgresNotifications = .init(),
    options: PostgresStoreOptions = .init(), logger: Logger = PostgresStepLogger.logger
  ) {
    let machineTable = PostgresMachineTable(
      name: table, idColumn: Model.postgresIDColumn, machine: machine ?? table, isShared: false)
    engine = PostgresStepEngine(
      client: client, definition: definition, table: machineTable, mapping: .record, clock: clock,
      configuration: configuration, logger: logger, notifications: notifications, options: options)
    PostgresMachineTableCatalog.record(machineTable, definition: definition, client: client, logger: logger)
  }

  /// Registers the handler of an outbox topic (P16): it gets each message at least once, so it
  /// must be idempotent (use the message's id).
  public func handle(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    engine.handle(topic, handler)
  }

  /// How many of the store's fast statements carried more than one fire (a test's proof that
  /// fires were batched).
  @_spi(Testing) public var sharedFastStatements: Int { engine.fastPlans.sharedStatements }

  /// Calls `hook` at each crash point of every transaction (Persistence §9 kills the process there).
  @_spi(Testing) public func onCrashPoint(_ hook: @escaping @Sendable (PostgresStoreCrashPoint) -> Void) {
    engine.lock.withLock { engine.crashHook = hook }
  }
}
#endif
