// The transaction path of the PostgreSQL store (Persistence §6): one transaction per step on
// one pooled connection; a fire by id locks its row with `SELECT … FOR UPDATE` and evaluates its
// event against the row as the previous writer committed it (P3); every write is a
// compare-and-set on the version with `RETURNING` (P4); history, deadline and outbox rows go in
// the same transaction (P1, P8, P16), and the held-back callbacks run after COMMIT (P5).

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import StateMachines

/// A point of a store transaction where a test may kill the process (Persistence §9).
@_spi(Testing) public enum PostgresStoreCrashPoint: String, Sendable, CaseIterable {
  /// The row lock is held, nothing is written.
  case afterLock
  /// The row and the step's rows are written, not committed.
  case afterWrite
  /// Just before COMMIT.
  case beforeCommit
  /// Committed; the `after` callbacks have not run.
  case afterCommit
}

/// The steps of one PostgreSQL store: reads, the transaction and its writes.
///
/// `@unchecked Sendable`: its `var`s (the crash hook, the cached id type and
/// lock statements) are read and written only under `lock`; every other property is a `let` of a
/// `Sendable` value.
final class PostgresStepEngine<Model: StateMachineObject & SendableMetatype>: _StoreEngine, @unchecked Sendable {
  let client: PostgresClient
  let definition: StateMachineDefinition<Model>
  let table: PostgresMachineTable
  let mapping: PostgresRowMapping<Model>
  let clock: StoreClock
  let configuration: StoreConfiguration<Model>
  let logger: Logger
  /// When a step wakes sleeping schedulers with `NOTIFY` (Persistence §7).
  let notifications: PostgresNotifications
  let lock = NSLock()
  /// The outbox handlers and their delivery loop (the core's, as for every SQL store).
  let outbox = StoreOutboxDelivery()
  var crashHook: (@Sendable (PostgresStoreCrashPoint) -> Void)?
  /// The SQL type of the id column, read from the catalog on first use.
  private var cachedIDType: String?
  /// The text of ``lockStatement(_:_:noWait:)``, made on first use.
  private var cachedLockSQL: (wait: String?, noWait: String?) = (nil, nil)
  /// The fast path's statements, by event (Persistence §6).
  let fastPlans = PostgresFastPlans()
  /// The statements prepared on each connection, or `nil` when the store sends every statement
  /// unprepared (Many application servers, prepared statements).
  let preparedStatements: PostgresPreparedStatements?
  /// How the store uses its connections (a pooler, batching, the lock timeout).
  let options: PostgresStoreOptions
  /// Whether concurrent fast fires of one event share a statement (``PostgresFastBatcher``).
  var batchesFires: Bool { options.batchesFires }

  /// How often a transaction the server aborted to break a deadlock is run again.
  static var deadlockRetries: Int { 3 }

  init(
    client: PostgresClient, definition: StateMachineDefinition<Model>, table: PostgresMachineTable,
    mapping: PostgresRowMapping<Model>, clock: StoreClock, configuration: StoreConfiguration<Model>, logger: Logger,
    notifications: PostgresNotifications = .init(), options: PostgresStoreOptions = .init()
  ) {
    self.options = options
    self.notifications = notifications
    self.preparedStatements = options.prepares ? PostgresPreparedStatements() : nil
    self.client = client
    self.definition = definition
    self.table = table
    self.mapping = mapping
    self.clock = clock
    self.configuration = configuration
    self.logger = logger
  }

  /// A step that was written, with its work for after the commit (the core's, as for every SQL
  /// store).
  typealias Written = StoreWrittenStep<Model>

  func crashPoint(_ point: PostgresStoreCrashPoint) {
    lock.withLock { crashHook }?(point)
  }

  // MARK: Statements

  /// Runs a statement on `connection` and returns its rows.
  @discardableResult
  func run(_ connection: PostgresConnection, _ statement: PostgresStatement, key: String) async throws(StateMachineStoreError)
    -> [PostgresRow]
  {
    try await PostgresStoreFailure.database(key) {
      try await connection.rows(of: statement, preparedIn: preparedStatements, autocommit: false, logger: logger)
    }
  }

  /// Runs a statement without binds.
  @discardableResult
  func run(_ connection: PostgresConnection, _ sql: String, key: String) async throws(StateMachineStoreError)
    -> [PostgresRow]
  {
    try await run(connection, PostgresStatement(sql), key: key)
  }

  /// The store clock's current time as SQL: the database's `now()` (P15), or a bound timestamp.
  func now(_ statement: inout PostgresStatement) -> String {
    if case .database = clock { return "now()" }
    return statement.bind(clock.now)
  }

  /// `base` plus `duration`, as SQL.
  func plus(_ base: String, _ duration: Duration, _ statement: inout PostgresStatement) -> String {
    "(\(base) + \(statement.bind(duration.storeSeconds)) * interval '1 second')"
  }

  /// The SQL type of the id column (for the text key's cast), from the catalog.
  func idType(_ connection: PostgresConnection) async throws(StateMachineStoreError) -> String {
    if table.isShared { return "text" }
    if let cached = lock.withLock({ cachedIDType }) { return cached }
    var statement = PostgresStatement()
    statement.sql = """
      SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
       WHERE a.attrelid = to_regclass(\(statement.bind(table.quotedName))) AND a.attname = \(statement.bind(table.idColumn))
         AND NOT a.attisdropped
      """
    let rows = try await run(connection, statement, key: "")
    guard let type = try rows.first.map({ row throws(StateMachineStoreError) in
      try PostgresStoreFailure.sync("") { try row.decode(String.self) }
    }) else {
      throw .database(PostgresStoreFailure("no column \(table.idColumn) in table \(table.name)"))
    }
    lock.withLock { cachedIDType = type }
    return type
  }

  // MARK: Transactions

  /// Runs `body` in one transaction on a pooled connection, then returns its value once
  /// committed; the caller runs the steps' held-back work (P1, P5). A transaction the server
  /// aborted to break a deadlock runs again, up to ``deadlockRetries`` times, and so does one whose
  /// BEGIN found its pooled connection already closed (nothing ran) and one that found a
  /// statement prepared on its connection gone (prepared again on the next attempt). A COMMIT that fails on the
  /// connection is `.commitOutcomeUnknown(requestID:)` (P6).
  func transaction<T: Sendable>(
    key: String, requestID: UUID? = nil,
    _ body: (PostgresConnection) async throws(StateMachineStoreError) -> T
  ) async throws(StateMachineStoreError) -> T {
    try await transaction(key: key, requestID: requestID, opening: nil) {
      connection, _ throws(StateMachineStoreError) in try await body(connection)
    }
  }

  /// ``transaction(key:requestID:_:)`` whose first statement, made by `opening` on the
  /// transaction's connection, is sent right behind BEGIN without waiting for BEGIN's answer
  /// (postgres-nio sends it when BEGIN is answered): one wait for both. `body` gets its rows.
  func transaction<T: Sendable>(
    key: String, requestID: UUID? = nil,
    opening: ((PostgresConnection) async throws(StateMachineStoreError) -> PostgresStatement)?,
    _ body: (PostgresConnection, [PostgresRow]?) async throws(StateMachineStoreError) -> T
  ) async throws(StateMachineStoreError) -> T {
    var attempt = 0
    while true {
      do {
        return try await once(key: key, requestID: requestID, opening: opening, body)
      } catch {
        let again =
          PostgresStoreFailure.isDeadlock(error) || PostgresStoreFailure.isClosedAtBegin(error)
          || PostgresStoreFailure.isStalePreparedStatement(error)
        guard again, attempt < Self.deadlockRetries else { throw error }
        attempt += 1
      }
    }
  }

  /// BEGIN (with the opening statement behind it), `body`, COMMIT on one pooled connection;
  /// ROLLBACK when `body` throws. `body` runs in `withConnection`'s closure itself, in the
  /// caller's isolation.
  private func once<T: Sendable>(
    key: String, requestID: UUID?,
    opening: ((PostgresConnection) async throws(StateMachineStoreError) -> PostgresStatement)?,
    _ body: (PostgresConnection, [PostgresRow]?) async throws(StateMachineStoreError) -> T
  ) async throws(StateMachineStoreError) -> T {
    let result: Result<T, StateMachineStoreError>
    do {
      result = try await client.withConnection { connection in
        let opened: Result<[PostgresRow], any Error>?
        do throws(StateMachineStoreError) {
          let first = try await opening?(connection)
          let begin = connection.send("BEGIN", logger: logger)
          // The lock timeout of this transaction alone (a pooler shares the session).
          let timeout = options.lockTimeoutMilliseconds.map {
            connection.send(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \($0)"), logger: logger)
          }
          // Sent behind BEGIN before BEGIN is answered; its answer comes after BEGIN's.
          if let first {
            do {
              opened = .success(
                try await connection.rows(of: first, preparedIn: preparedStatements, autocommit: false, logger: logger))
            } catch {
              opened = .failure(error)
            }
          } else {
            opened = nil
          }
          _ = try await PostgresStoreFailure.database(key) { try await begin.rows() }
          _ = try await PostgresStoreFailure.database(key) { try await timeout?.rows() }
        } catch {
          return .failure(PostgresStoreFailure.atBegin(error))
        }
        let value: T
        do throws(StateMachineStoreError) {
          var rows: [PostgresRow]?
          if let opened { rows = try await PostgresStoreFailure.database(key) { try opened.get() } }
          value = try await body(connection, rows)
        } catch {
          if !PostgresStoreFailure.endedSession(error) {
            _ = try? await connection.answered("ROLLBACK", logger: logger)
          }
          return .failure(error)
        }
        return await commit(connection, key: key, requestID: requestID).map { value }
      }
    } catch {
      throw PostgresStoreFailure.map(error, key: key)
    }
    return try result.get()
  }

  /// COMMIT. One that fails on the connection has an unknown outcome (P6); one the server
  /// refused rolled back.
  func commit(_ connection: PostgresConnection, key: String, requestID: UUID?) async
    -> Result<Void, StateMachineStoreError>
  {
    crashPoint(.beforeCommit)
    // A session the server ended before COMMIT was sent rolled back: nothing committed, so the
    // outcome is known (and a COMMIT sent there could wait forever).
    if connection.isClosed { return .failure(PostgresStoreFailure.closedBeforeSending()) }
    do {
      _ = try await connection.answered("COMMIT", logger: logger)
    } catch {
      if PostgresStoreFailure.isConnectionLoss(error) {
        return .failure(.commitOutcomeUnknown(requestID: requestID, underlying: error))
      }
      _ = try? await connection.answered("ROLLBACK", logger: logger)
      return .failure(PostgresStoreFailure.map(error, key: key))
    }
    crashPoint(.afterCommit)
    return .success(())
  }

  // MARK: Reads inside a transaction

  /// The row with `key`, locked for the transaction (`FOR UPDATE`, or `FOR UPDATE NOWAIT`:
  /// a row another transaction holds is then `.locked`, P3), or `nil`.
  func lockRow(_ connection: PostgresConnection, _ key: String, noWait: Bool = false) async throws(StateMachineStoreError)
    -> PostgresRow?
  {
    let statement = try await lockStatement(connection, key, noWait: noWait)
    return try await locked(run(connection, statement, key: key))
  }

  /// The statement of ``lockRow(_:_:noWait:)``; its text is made once per store.
  func lockStatement(_ connection: PostgresConnection, _ key: String, noWait: Bool) async throws(StateMachineStoreError)
    -> PostgresStatement
  {
    let idType = try await idType(connection)
    if let sql = lock.withLock({ noWait ? cachedLockSQL.noWait : cachedLockSQL.wait }) {
      var statement = PostgresStatement(sql)
      _ = table.row(key, idType: idType, &statement)
      return statement
    }
    var statement = PostgresStatement()
    let filter = table.row(key, idType: idType, &statement)
    statement.sql = "SELECT \(table.selectList(mapping.columns)) FROM \(table.quotedName) WHERE \(filter) FOR UPDATE"
    if noWait { statement.sql += " NOWAIT" }
    let sql = statement.sql
    lock.withLock { if noWait { cachedLockSQL.noWait = sql } else { cachedLockSQL.wait = sql } }
    return statement
  }

  /// The row of the lock's answer: the crash point after the lock is passed.
  func locked(_ rows: [PostgresRow]) -> PostgresRow? {
    crashPoint(.afterLock)
    return rows.first
  }

  /// A fresh object from a row: its own columns, then its machine columns (P12).
  func fresh(_ row: PostgresRow, _ key: String) throws(StateMachineStoreError) -> Model {
    let offset = mapping.columns.count
    let (model, machine) = try PostgresStoreFailure.sync(key) {
      (try mapping.decode(row), try PostgresMachineTable.machineState(row, offset: offset))
    }
    try definition.load(machine, into: model, id: key)
    return model
  }

  /// A fresh object from a row the transaction locked, with its own columns as bound values: a
  /// step that leaves them so does not write them (``write(_:_:_:_:cause:requestID:dueAt:loaded:)``).
  func lockedObject(_ row: PostgresRow, _ key: String) throws(StateMachineStoreError) -> (model: Model, loaded: PostgresBindings) {
    let model = try fresh(row, key)
    return (model, try PostgresStoreFailure.sync(key) { try mapping.bindings(model) })
  }

  /// The machine columns of a row.
  func machineState(_ row: PostgresRow, _ key: String) throws(StateMachineStoreError) -> StoredMachineState {
    let offset = mapping.columns.count
    return try PostgresStoreFailure.sync(key) { try PostgresMachineTable.machineState(row, offset: offset) }
  }

  /// The machine columns of the committed row with `key`, for a conflict's report.
  func current(_ connection: PostgresConnection, _ key: String) async throws(StateMachineStoreError)
    -> StoredMachineState?
  {
    let idType = try await idType(connection)
    var statement = PostgresStatement()
    let filter = table.row(key, idType: idType, &statement)
    statement.sql = "SELECT \(table.selectList([])) FROM \(table.quotedName) WHERE \(filter)"
    guard let row = try await run(connection, statement, key: key).first else { return nil }
    return try PostgresStoreFailure.sync(key) { try PostgresMachineTable.machineState(row, offset: 0) }
  }

  /// A copy of an object the caller holds, so that the store never changes it: its own columns
  /// go through the server and back (`SELECT $1 AS …`), then through the record's own decoding.
  func copy(_ model: Model, _ key: String) async throws(StateMachineStoreError) -> Model {
    var statement = PostgresStatement(applicationBinds: try PostgresStoreFailure.sync(key) { try mapping.bindings(model) })
    statement.sql =
      "SELECT "
      + mapping.columns.enumerated().map { "$\($0.offset + 1) AS \($0.element.quotedIdentifier)" }.joined(separator: ", ")
    let select = statement
    let rows = try await read(key) { connection throws(StateMachineStoreError) in try await run(connection, select, key: key) }
    guard let row = rows.first else { throw .database(PostgresStoreFailure("no copy of row \(key)")) }
    return try PostgresStoreFailure.sync(key) { try mapping.decode(row) }
  }

  // MARK: Inserting

  /// Inserts a new row in the initial configuration at version 0, with its deadlines (P8).
  @discardableResult
  func insert(_ model: Model, key: String) async throws(StateMachineStoreError) -> StoredMachineState {
    let fresh = try await copy(model, key)
    let step = try definition.storeStart(on: fresh)
    let binds = try PostgresStoreFailure.sync(key) { try mapping.bindings(fresh) }
    try await transaction(key: key) { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement(applicationBinds: binds)
      var names = mapping.columns.map(\.quotedIdentifier)
      var values = (0..<mapping.columns.count).map { "$\($0 + 1)" }
      if table.isShared {
        names += ["machine", "entity_id"]
        values += [statement.bind(table.machine), statement.bind(key)]
      }
      names += ["state", "sm_version", "sm_terminated", "sm_history"]
      values += try PostgresStoreFailure.sync(key) { try PostgresMachineTable.bind(step.after, &statement) }
      statement.sql =
        "INSERT INTO \(table.quotedName) (\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
      try await run(connection, statement, key: key)
      try await arm(connection, step, key)
      try await wakeSchedulers(connection, armed: step.armed.map(\.delay), messages: 0, key: key)
    }
    step.committed()
    return step.after
  }
}
#endif
