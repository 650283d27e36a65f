// The transaction path of the SQLite stores (Persistence §6): one `BEGIN IMMEDIATE`
// transaction per step, which holds SQLite's one write lock, so a fire by id evaluates its event
// against the row as committed by the previous writer (P3); every write is a compare-and-set on
// the version (P4); history, deadline and outbox rows go in the same transaction (P1, P8, P16),
// and the held-back callbacks run after COMMIT (P5).

#if SQLite
import Foundation
import GRDB
import StateMachines

/// A point of a store transaction where a test may kill the process (Persistence §9).
@_spi(Testing) public enum StoreCrashPoint: String, Sendable, CaseIterable {
  /// The write lock is held, nothing is written.
  case afterLock
  /// The row and the step's rows are written, not committed.
  case afterWrite
  /// Just before COMMIT.
  case beforeCommit
  /// Committed; the `after` callbacks have not run.
  case afterCommit
}

/// The steps of one SQLite store: reads, the transaction and its writes.
///
/// `@unchecked Sendable`: its `var`s (the crash hook, the cached `UPDATE`s)
/// are read and written only under `lock`; every other property is a `let` of a `Sendable` value.
final class SQLiteStepEngine<Model: StateMachineObject & SendableMetatype>: _StoreEngine, @unchecked Sendable {
  let writer: any DatabaseWriter
  let definition: StateMachineDefinition<Model>
  let table: SQLiteMachineTable
  let mapping: SQLiteRowMapping<Model>
  let clock: StoreClock
  let configuration: StoreConfiguration<Model>
  /// The states (as rows spell them) whose entry arms a timeout: only their exits delete
  /// deadline rows, so a step that leaves no timed state runs no `DELETE` (P8).
  let timedStates: Set<String>
  let lock = NSLock()
  /// The outbox handlers and their delivery loop (the core's, as for every SQL store).
  let outbox = StoreOutboxDelivery()
  var crashHook: (@Sendable (StoreCrashPoint) -> Void)?
  /// The full path's `UPDATE`s by the object's own columns, built once per set of columns.
  var updateStatements: [[String]: String] = [:]

  init(
    writer: any DatabaseWriter, definition: StateMachineDefinition<Model>, table: SQLiteMachineTable,
    mapping: SQLiteRowMapping<Model>, clock: StoreClock, configuration: StoreConfiguration<Model>
  ) {
    self.writer = writer
    self.definition = definition
    self.table = table
    self.mapping = mapping
    self.clock = clock
    self.configuration = configuration
    timedStates = Set(
      definition.states.filter { !definition.timeoutEvents(of: $0).isEmpty }.compactMap(definition.storedName(of:)))
  }

  /// A step that was written, with its work for after the commit (the core's, as for every SQL
  /// store).
  typealias Written = StoreWrittenStep<Model>

  func crashPoint(_ point: StoreCrashPoint) {
    lock.withLock { crashHook }?(point)
  }

  // MARK: Transactions

  /// Runs `body` in one `BEGIN IMMEDIATE` transaction on the writer, and then, once committed,
  /// the steps' held-back work (P1, P5). `noWait` fails with `.locked` instead of waiting for
  /// another connection's write lock (P3).
  func transaction<T: Sendable>(
    key: String, noWait: Bool = false, _ body: @escaping @Sendable (Database) throws(StateMachineStoreError) -> T
  ) async throws(StateMachineStoreError) -> T {
    let result: Result<T, StateMachineStoreError>
    do {
      result = try await writer.writeWithoutTransaction { db in
        self.immediate(db, key: key, noWait: noWait, body)
      }
    } catch {
      throw SQLiteStoreFailure.map(error, key: key)
    }
    return try result.get()
  }

  /// The synchronous body of ``transaction(key:noWait:_:)``, on the writer's connection.
  func immediate<T>(
    _ db: Database, key: String, noWait: Bool, _ body: (Database) throws(StateMachineStoreError) -> T
  ) -> Result<T, StateMachineStoreError> {
    do {
      try begin(db, noWait: noWait)
    } catch {
      return .failure(SQLiteStoreFailure.map(error, key: key))
    }
    crashPoint(.afterLock)
    let value: T
    do {
      value = try body(db)
    } catch {
      try? db.execute(sql: "ROLLBACK")
      return .failure(error)
    }
    crashPoint(.beforeCommit)
    do {
      try db.cachedStatement(sql: "COMMIT").execute()
    } catch {
      try? db.execute(sql: "ROLLBACK")
      return .failure(SQLiteStoreFailure.map(error, key: key))
    }
    crashPoint(.afterCommit)
    return .success(value)
  }

  /// `BEGIN IMMEDIATE`: takes SQLite's write lock now, waiting up to the connection's busy
  /// timeout, or not at all.
  private func begin(_ db: Database, noWait: Bool) throws {
    guard noWait, case .timeout(let seconds) = db.configuration.busyMode else {
      try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
      return
    }
    try db.execute(sql: "PRAGMA busy_timeout = 0")
    defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(seconds * 1000))") }
    try db.execute(sql: "BEGIN IMMEDIATE")
  }

  // MARK: Reads inside a transaction

  /// The row with `key`, or `nil`.
  func fetchRow(_ db: Database, _ key: String) throws(StateMachineStoreError) -> Row? {
    try SQLiteStoreFailure.database(key) {
      try Row.fetchOne(try db.cachedStatement(sql: table.selectRowSQL), arguments: table.row(key).arguments)
    }
  }

  /// Runs `body` on the row with `key` as SQLite returns it, not copied, with where its machine
  /// columns are; `nil` when there is no such row. The row is valid only inside `body`.
  func withRow<T>(
    _ db: Database, _ key: String, _ body: (Row, SQLiteMachineColumns) throws -> T
  ) throws(StateMachineStoreError) -> T? {
    try SQLiteStoreFailure.database(key) {
      let statement = try db.cachedStatement(sql: table.selectRowSQL)
      let cursor = try Row.fetchCursor(statement, arguments: table.keyArguments(key))
      // The cursor resets the statement when it goes, right after `body`.
      return try withExtendedLifetime(cursor) {
        guard let row = try cursor.next() else { return nil }
        return try body(row, try SQLiteMachineColumns(statement))
      }
    }
  }

  /// A fresh object from a row: its own columns, then its machine columns (P12).
  func fresh(_ row: Row, _ key: String) throws(StateMachineStoreError) -> Model {
    let (model, machine) = try SQLiteStoreFailure.database(key) { (try mapping.decode(row), try table.machineState(row)) }
    try definition.load(machine, into: model, id: key)
    return model
  }

  /// The machine columns of the row with `key`, for a conflict's report.
  func current(_ db: Database, _ key: String) throws(StateMachineStoreError) -> StoredMachineState? {
    guard let row = try fetchRow(db, key) else { return nil }
    return try SQLiteStoreFailure.database(key) { try table.machineState(row) }
  }

  // MARK: Inserting

  /// Inserts a new row in the initial configuration at version 0, with its deadlines (P8).
  @discardableResult
  func insert(_ model: Model, key: String) async throws(StateMachineStoreError) -> StoredMachineState {
    let fresh = try SQLiteStoreFailure.database(key) { try mapping.copy(model) }
    let step = try definition.storeStart(on: fresh)
    let columns = try SQLiteStoreFailure.database(key) { try mapping.columns(fresh) }
    try await transaction(key: key) { db throws(StateMachineStoreError) in
      try self.insertRow(db, key: key, columns: columns, machine: step.after)
      try self.arm(db, step, key)
    }
    step.committed()
    return step.after
  }

  private func insertRow(
    _ db: Database, key: String, columns: [String: DatabaseValue], machine: StoredMachineState
  ) throws(StateMachineStoreError) {
    var names = columns.keys.sorted()
    var arguments = StatementArguments(names.map { columns[$0]! })
    if table.isShared {
      names += ["machine", "entity_id"]
      arguments += [table.machine, key]
    }
    names += ["state", "sm_version", "sm_terminated", "sm_history"]
    try SQLiteStoreFailure.database(key) {
      arguments += try SQLiteMachineTable.arguments(machine)
      let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
      try db.execute(
        sql: "INSERT INTO \(table.quotedName) (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) "
          + "VALUES (\(placeholders))",
        arguments: arguments)
    }
  }
}
#endif
