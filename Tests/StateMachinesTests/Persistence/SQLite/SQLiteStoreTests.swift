// What only the SQLite store has: fires inside the application's own transaction, the write
// lock across connections (P3), and bad input from the database side (Persistence §9).

#if SQLite
import Foundation
import GRDB
@_spi(Testing) import StateMachines
import StateMachinesSQLite
import Testing

/// A payload whose encoding fails.
struct UnencodablePayload: Encodable, Sendable {
  struct Refused: Error {}
  func encode(to encoder: any Encoder) throws { throw Refused() }
}

@Suite("SQLite store: transactions, locks and bad input", .timeLimit(.minutes(1)))
struct SQLiteStoreTests {
  let pool: DatabasePool
  let orders: SQLiteStateMachineStore<StoreOrder>

  init() async throws {
    let factory = SQLiteStoreFactory()
    pool = factory.pool
    orders = try await factory.makeStore(StoreOrder.self, clock: .system, outbox: []) as! SQLiteStateMachineStore<StoreOrder>
  }

  func historyCount(_ id: Int) async throws -> Int {
    try await pool.read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sm_transitions WHERE entity_id = ?", arguments: ["\(id)"]) ?? 0
    }
  }

  /// Waits until `condition` holds (the held-back work of an in-app fire runs asynchronously).
  func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
  }

  @Test("P1, P5: a fire inside the application's write commits with it; after runs once it committed")
  func fireInsideTheApplicationsTransaction() async throws {
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let orders = self.orders
    try await pool.write { db in
      try db.execute(sql: "CREATE TABLE IF NOT EXISTS invoices (order_id INTEGER)")
      try db.execute(sql: "INSERT INTO invoices (order_id) VALUES (?)", arguments: [id])
      let fired = try orders.fire(.pay, on: id, in: db)
      #expect(fired.to == "paid")
      // Not committed yet: `after` has not run.
      #expect(!StoreMarks.shared.of(id).contains("after pay"))
    }
    try await eventually { StoreMarks.shared.of(id).contains("after pay") }
    #expect(StoreMarks.shared.of(id).filter { $0 == "after pay" }.count == 1)
    #expect(try await orders.storedState(of: id)?.state == "paid")
    #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM invoices WHERE order_id = ?", arguments: [id]) } == 1)
  }

  @Test("P5: when the application's write rolls back, the step is gone and after never runs")
  func rolledBackApplicationTransaction() async throws {
    struct Abort: Error {}
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let orders = self.orders
    await #expect(throws: Abort.self) {
      try await pool.write { db in
        try orders.fire("pay", on: id, in: db)
        throw Abort()
      }
    }
    try await Task.sleep(for: .milliseconds(100))
    #expect(!StoreMarks.shared.of(id).contains("after pay"))
    #expect(try await orders.storedState(of: id) == StoredMachineState(state: "awaitingPayment", version: 0))
    #expect(try await historyCount(id) == 0)
  }

  @Test("a refused fire inside the application's write leaves that write going on, with nothing of the step")
  func refusedFireInsideTheApplicationsTransaction() async throws {
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let orders = self.orders
    try await pool.write { db in
      #expect(throws: StateMachineStoreError.self) { try orders.fire("ship", on: id, in: db) }
      try orders.fire("pay", on: id, in: db)
    }
    #expect(try await orders.storedState(of: id)?.version == 1)
  }

  /// Holds `queue`'s write lock in a transaction of its own, on another thread, until `release`
  /// is signalled; returns once the transaction holds the lock and has run `sql`.
  func holdWriteLock(_ queue: DatabaseQueue, running sql: String, until release: DispatchSemaphore) async {
    let entered = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      try? queue.write { db in
        try db.execute(sql: sql)
        entered.signal()
        release.wait()
      }
    }
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        entered.wait()
        continuation.resume()
      }
    }
  }

  @Test("P3: a fire waits for another connection's write lock, or with noWait reports the row locked")
  func writeLockAcrossConnections() async throws {
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    let other = try DatabaseQueue(path: pool.path, configuration: configuration)
    let release = DispatchSemaphore(value: 0)
    await holdWriteLock(other, running: "UPDATE storeOrder SET shippable = 0 WHERE id = \(id)", until: release)
    let error = await storeError { try await orders.fire("pay", on: id, options: FireOptions(lock: .noWait)) }
    guard case .locked(let locked) = error else {
      Issue.record("expected .locked, got \(String(describing: error))")
      return
    }
    #expect(locked == "\(id)")
    // With the default, the fire waits for the lock and then runs on the committed row.
    let waiting = Task { try await orders.fire("pay", on: id) }
    try await Task.sleep(for: .milliseconds(200))
    release.signal()
    let fired = try await waiting.value
    #expect(fired.to == "paid" && fired.model.shippable == false)
  }

  @Test("bad input: a payload that cannot be encoded rolls the step back; nothing written, after never runs")
  func unencodablePayload() async throws {
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let error = await storeError { try await orders.fire("pay", on: id, payload: UnencodablePayload()) }
    guard case .database = error else {
      Issue.record("expected .database, got \(String(describing: error))")
      return
    }
    #expect(try await orders.storedState(of: id) == StoredMachineState(state: "awaitingPayment", version: 0))
    #expect(try await orders.load(id)?.payments == 0)
    #expect(try await historyCount(id) == 0)
    #expect(!StoreMarks.shared.of(id).contains("after pay"))
  }

  @Test("bad input: a row set to an unknown state by SQL is refused, nothing written; verify reports it")
  func unknownStateSetBySQL() async throws {
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await pool.write { db in try db.execute(sql: "UPDATE storeOrder SET state = 'legacy' WHERE id = ?", arguments: [id]) }
    for error in [
      await storeError { try await orders.load(id) }, await storeError { try await orders.fire("pay", on: id) },
    ] {
      guard case .unknownStoredState(let row, let state) = error else {
        Issue.record("expected .unknownStoredState, got \(String(describing: error))")
        continue
      }
      #expect(row == "\(id)" && state == "legacy")
    }
    #expect(try await orders.storedState(of: id) == StoredMachineState(state: "legacy", version: 0))
    #expect(try await historyCount(id) == 0)
    #expect(try await orders.verify().unknownStates["\(id)"] == "legacy")
  }

  @Test("P12: migrate moves rows of a removed state, with a migration history row and re-armed deadlines")
  func migrateMovesUnknownStates() async throws {
    let clock = ManualStoreClock()
    let orders = SQLiteStateMachineStore<StoreOrder>(pool, clock: .manual(clock))
    let (legacy, kept) = (StoreTestIDs.next(), StoreTestIDs.next())
    try await orders.insert(StoreOrder(id: legacy))
    try await orders.insert(StoreOrder(id: kept))
    try await orders.fire("pay", on: legacy)
    try await pool.write { db in try db.execute(sql: "UPDATE storeOrder SET state = 'legacy' WHERE id = ?", arguments: [legacy]) }
    #expect(try await orders.verify().unknownStates["\(legacy)"] == "legacy")
    // A target that is not a state: refused, nothing moved.
    guard case .rejected = await storeError({ try await orders.migrate(from: "legacy", to: "nowhere") }) else {
      Issue.record("a migration to an unknown state was not rejected")
      return
    }
    #expect(try await orders.storedState(of: legacy)?.state == "legacy")
    #expect(try await orders.migrate(from: "legacy", to: "awaitingPayment") == 1)
    let history = try await orders.history(of: legacy)
    #expect(history.last.map { "\($0.version) \($0.from)->\($0.to) \($0.cause)" } == "2 legacy->awaitingPayment migration")
    #expect(try await orders.deadlines(of: legacy).map(\.event) == ["expire"])
    #expect(try await orders.verify().isClean)
    #expect(try await orders.fire("pay", on: legacy).version == 3)
    #expect(try await orders.storedState(of: kept)?.version == 0)
  }

  @Test("bad input: a read-only database and one without the library's tables give typed errors, nothing written")
  func readOnlyAndForeignDatabases() async throws {
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    var configuration = Configuration()
    configuration.readonly = true
    let readOnly = try DatabasePool(path: pool.path, configuration: configuration)
    let viaReadOnly = SQLiteStateMachineStore<StoreOrder>(readOnly)
    guard case .database = await storeError({ try await viaReadOnly.fire("pay", on: id) }) else {
      Issue.record("a fire through a read-only connection did not fail with .database")
      return
    }
    #expect(try await orders.storedState(of: id)?.version == 0)
    // A database that is not ours: the table exists, the library's tables do not.
    let foreign = try DatabaseQueue(
      path: FileManager.default.temporaryDirectory.appendingPathComponent("sm-foreign-\(UUID()).sqlite").path)
    try await foreign.write { db in
      try db.create(table: "storeOrder") { table in
        StoreOrder.ownColumns(table)
        table.stateMachineColumns()
      }
    }
    let notOurs = SQLiteStateMachineStore<StoreOrder>(foreign)
    guard case .database = await storeError({ try await notOurs.insert(StoreOrder(id: id)) }) else {
      Issue.record("an insert without the library's tables did not fail with .database")
      return
    }
    #expect(try await foreign.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM storeOrder") } == 0)
  }

  @Test("bad input: a corrupt database file gives typed errors, never a crash")
  func corruptDatabase() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sm-corrupt-\(UUID()).sqlite").path
    do {
      let queue = try DatabaseQueue(path: path)
      try await queue.write { db in
        try StateMachineTables.create(in: db)
        try db.create(table: "storeOrder") { table in
          StoreOrder.ownColumns(table)
          table.stateMachineColumns()
        }
      }
      let orders = SQLiteStateMachineStore<StoreOrder>(queue)
      for _ in 0..<50 { try await orders.insert(StoreOrder(id: StoreTestIDs.next())) }
      try queue.close()
    }
    // Every page after the first (the header) is overwritten with garbage.
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let pageSize = 4096
    for index in stride(from: pageSize, to: bytes.count, by: 1) { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
    try bytes.write(to: URL(fileURLWithPath: path))
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: path)
    } catch {
      return  // refused when opened: a typed error from GRDB
    }
    let orders = SQLiteStateMachineStore<StoreOrder>(queue)
    for error in [
      await storeError { try await orders.fire("pay", on: 1) }, await storeError { try await orders.load(1) },
      await storeError { try await orders.insert(StoreOrder(id: StoreTestIDs.next())) },
      await storeError { try await orders.fireDueTimeouts(limit: 10) }, await storeError { try await orders.verify() },
    ] {
      guard case .database = error else {
        Issue.record("expected .database on a corrupt file, got \(String(describing: error))")
        continue
      }
    }
    try queue.close()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "nothing written to the corrupt file")
  }

  @Test("bad input: a file that is not a database is refused when opened")
  func notADatabase() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sm-garbage-\(UUID()).sqlite").path
    try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
    #expect(throws: DatabaseError.self) {
      let queue = try DatabaseQueue(path: path)
      try queue.write { db in try StateMachineTables.create(in: db) }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x5A, count: 8192))
  }
}
#endif
