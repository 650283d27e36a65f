// Orders persisted in a SQLite file: `try await order.pay()` as one store step, a lost race, an
// order shipped inside the application's own transaction, a payment deadline that survives a
// restart, an outbox message on ship. Run it with the trait:
//   swift run --traits SQLite Orders                 both runs in one go, on a new temp file
//   swift run --traits SQLite Orders PATH            the first run only, on PATH
//   swift run --traits SQLite Orders PATH --later    the second run: a process started later

#if SQLite
import Foundation
import GRDB
import StateMachines
import StateMachinesSQLite

// No `Sendable` to promise: the store hands objects to its database thread and back itself.
@StateMachine
final class Order: Codable, FetchableRecord, EncodableRecord, TableRecord, StoreManagedStateMachine {
  static let databaseTableName = "orders"
  var id: Int
  var item: String
  var storeID: Int { id }
  init(id: Int, item: String) { (self.id, self.item) = (id, item) }

  static let stateMachine = StateMachineDefinition<Order> { sm in
    sm.addState("awaitingPayment")
    sm.addState("paid")
    sm.addState("shipped")
    sm.addState("cancelled")
    sm.when("pay", transitionFrom: "awaitingPayment", to: "paid")
    sm.when("ship", transitionFrom: "paid", to: "shipped")
    sm.when("cancel", transitionFrom: ["awaitingPayment", "paid"], to: "cancelled")
    // A durable timeout: a row in sm_deadlines, armed and deleted with the step that enters or
    // leaves awaitingPayment (P8), fired by whichever scheduler runs once it is due (P9).
    sm.when("expire", transitionFrom: "awaitingPayment", to: "cancelled", after: .seconds(30 * 60))
    // `after` runs once the step's transaction has committed, never on a rollback (P5).
    sm.after("pay") { order in print("    (after pay, committed: a receipt for order \(order.id))") }
  }
}

/// The message that shipping an order writes in the step's transaction (P16).
struct ShippingNotice: Codable, Sendable { var order: Int, item: String }

/// Prints one step, the call on the left and its result on the right.
func show(_ call: String, _ result: Any) {
  print("\(call.padding(toLength: 40, withPad: " ", startingAt: 0)) → \(result)")
}

/// The database an application would open: WAL (readers never wait), a busy timeout (processes
/// take turns), its own table with the machine columns, and the library's tables.
func open(_ path: String) throws -> DatabasePool {
  var configuration = Configuration()
  configuration.busyMode = .timeout(5)
  let pool = try DatabasePool(path: path, configuration: configuration)
  var migrator = DatabaseMigrator()
  migrator.registerMigration("orders") { db in
    try db.create(table: "orders") { table in
      table.column("id", .integer).primaryKey()
      table.column("item", .text).notNull()
      table.stateMachineColumns()
    }
  }
  migrator.registerStateMachineTables()
  try migrator.migrate(pool)
  return pool
}

/// The store of orders on `pool`. The clock is a manual one so that every run prints the same
/// dates; an application keeps the default, `.system`.
func orders(_ pool: DatabasePool, at now: Date) -> SQLiteStateMachineStore<Order> {
  var configuration = StoreConfiguration<Order>()
  configuration.outbox(after: "ship", topic: "shipping") { order, _ in ShippingNotice(order: order.id, item: order.item) }
  let store = SQLiteStateMachineStore<Order>(pool, clock: .manual(ManualStoreClock(start: now)), configuration: configuration)
  store.handle("shipping") { message in
    let notice = try JSONDecoder().decode(ShippingNotice.self, from: message.payload)
    print("    (handler: ship \(notice.item) for order \(notice.order), message \(message.id))")
  }
  return store
}

let opening = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00:00 UTC

/// Deletes the database file and its WAL files.
func remove(_ path: String) {
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

func firstRun(_ path: String) async throws {
  remove(path)
  print("== first run, \(opening): a new database at \(path)")
  let pool = try open(path)
  let store = orders(pool, at: opening)
  // `insert` binds the object to the store: its generated methods fire through it.
  let book = Order(id: 1, item: "book")
  try await store.insert(book)
  try await store.insert(Order(id: 2, item: "lamp"))
  show("insert orders 1 and 2", "\(book.state), \(try await store.load(2)!.state)")
  show("deadlines(of: 2)", try await store.deadlines(of: 2).map { "\($0.event) due \($0.dueAt)" })
  let stale = try await store.load(1)!  // the same order, loaded by another request
  // One store step: compare-and-set on the version `book` holds, history, deadlines, outbox.
  show("try await book.pay()", try await book.pay())
  show("book.isPaid, book.canShip", "\(book.isPaid), \(book.canShip)")
  show("try await book.pay() again", try await book.pay())  // refused: false, nothing written
  show("deadlines(of: 1), left awaitingPayment", try await store.deadlines(of: 1))
  do {
    try await stale.cancel()
  } catch {
    show("try await stale.cancel()", error)  // P4: a conflict, never an overwrite
  }
  show("stale.state after the conflict", stale.state)  // the winner's row
  try await pool.write { db in
    // In the application's own transaction: the step commits or rolls back with its writes (P1).
    try db.execute(sql: "UPDATE orders SET item = 'signed book' WHERE id = 1")
    show("fire(.ship, on: 1, in: db)", try store.fire(.ship, on: 1, in: db).to)
  }
  show("ids(in: .shipped)", try await store.ids(in: .shipped))
  show("pendingMessages()", try await store.pendingMessages().map(\.topic))
  show("deliverOutbox(limit: 10)", try await store.deliverOutbox(limit: 10))
  do {
    try await store.fire(.cancel, on: 1)
  } catch {
    show("fire(.cancel, on: 1)", error)
  }
  show("history(of: 1)", try await store.history(of: 1).map { "\($0.from) → \($0.to)" })
  show("order 2", "\(try await store.load(2)!.state), not paid when this run ends")
  try pool.close()
}

func laterRun(_ path: String) async throws {
  let later = opening + 2 * 3600
  print("== a later run, \(later): the database at \(path) again")
  let pool = try open(path)
  let store = orders(pool, at: later)
  show("order 2", try await store.load(2)!.state)
  show("deadlines(of: 2), overdue", try await store.deadlines(of: 2).map { "\($0.event) due \($0.dueAt)" })
  // One scheduler pass; an application runs `store.runScheduler()` in a task of its own.
  show("fireDueTimeouts(limit: 10)", try await store.fireDueTimeouts(limit: 10))
  show("order 2", try await store.load(2)!.state)
  show("history(of: 2).last", try await store.history(of: 2).last.map { "\($0.cause): \($0.event), due \($0.dueAt!)" }!)
  show("fireDueTimeouts(limit: 10) again", try await store.fireDueTimeouts(limit: 10))  // P10: once
  try pool.close()
}

let arguments = CommandLine.arguments.dropFirst()
let isLater = arguments.contains("--later")
if let path = arguments.first(where: { $0 != "--later" }) {
  try await isLater ? laterRun(path) : firstRun(path)
} else {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("orders-\(UUID().uuidString).sqlite").path
  try await firstRun(path)
  print("== restart: the database is closed and opened again, two hours later")
  try await laterRun(path)
  remove(path)
}
#else
print("Orders keeps its orders in SQLite, which needs the package trait SQLite:")
print("  swift run --traits SQLite Orders")
#endif
