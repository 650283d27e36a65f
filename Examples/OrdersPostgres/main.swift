// Orders on PostgreSQL, as several application servers share them: the table's DDL, the client,
// `try await order.pay()` as one store step, a race between two servers that one wins, an order
// shipped in the application's own transaction with its outbox message, and a payment deadline
// fired by the scheduler of any server. Run it with the trait and a database it may create a
// schema in:
//   swift run --traits PostgreSQL OrdersPostgres postgres://postgres@127.0.0.1:5432/postgres

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines
import StateMachinesPostgres

/// An order row: the application's columns `id` and `item`, plus the machine columns the store
/// owns. Conforming to `PostgresStateMachineRecord` makes the class store-managed, so `pay()` is
/// `async throws`; no `Sendable` to promise.
@StateMachine
final class Order: PostgresStateMachineRecord {
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
    sm.when("expire", transitionFrom: "awaitingPayment", to: "cancelled", after: .seconds(30 * 60))
  }

  // The row mapping: the store selects these columns first, then its machine columns.
  static let postgresTableName = "orders"
  static let postgresColumns = ["id", "item"]
  convenience init(postgresRow row: PostgresRow) throws {
    let (id, item) = try row.decode((Int, String).self)
    self.init(id: id, item: item)
  }
  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(item)
    return binds
  }
}

/// Prints one step, the call on the left and its result on the right.
func show(_ call: String, _ result: Any) {
  print("\(call.padding(toLength: 40, withPad: " ", startingAt: 0)) → \(result)")
}

/// A client as each application server makes one, with the example's schema first on its path.
func client(_ url: String, schema: String) throws -> PostgresClient {
  guard let components = URLComponents(string: url), let host = components.host else {
    throw ExampleFailure("not a postgres:// URL: \(url)")
  }
  var configuration = PostgresClient.Configuration(
    host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
    password: components.password, database: String(components.path.dropFirst()), tls: .disable)
  configuration.options.additionalStartupParameters = [("search_path", schema)]
  return PostgresClient(configuration: configuration)
}

struct ExampleFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The store of one server. The clock is a manual one so that the example can move time on; an
/// application keeps the default, the database's clock.
func orders(_ client: PostgresClient, clock: ManualStoreClock) -> PostgresStateMachineStore<Order> {
  var configuration = StoreConfiguration<Order>()
  configuration.outbox(after: "ship", topic: "shipping") { order, _ in ["order": "\(order.id)", "item": order.item] }
  let store = PostgresStateMachineStore<Order>(client, clock: .manual(clock), configuration: configuration)
  store.handle("shipping") { message in
    print("    (handler: message \(message.id): \(String(decoding: message.payload, as: UTF8.self)))")
  }
  return store
}

func run(_ url: String) async throws {
  let schema = "orders_example"
  let logger = PostgresStepLogger.logger
  let admin = try client(url, schema: "public")
  let serverA = try client(url, schema: schema)
  let serverB = try client(url, schema: schema)
  try await withThrowingDiscardingTaskGroup { group in
    for client in [admin, serverA, serverB] { group.addTask { await client.run() } }
    defer { group.cancelAll() }
    // The schema of this example, new on every run; then the application's table, the library's
    // tables and the machine columns (`state`, `sm_version`, `sm_terminated`, `sm_history`).
    try await admin.query("DROP SCHEMA IF EXISTS orders_example CASCADE", logger: logger)
    try await admin.query("CREATE SCHEMA orders_example", logger: logger)
    try await serverA.query("CREATE TABLE orders (id bigint PRIMARY KEY, item text NOT NULL)", logger: logger)
    try await serverA.query("CREATE TABLE invoices (order_id bigint NOT NULL)", logger: logger)
    try await PostgresStateMachineTables.create(on: serverA)
    try await PostgresStateMachineTables.addMachineColumns(to: "orders", on: serverA)

    let clock = ManualStoreClock(start: Date(timeIntervalSince1970: 1_767_225_600))
    let a = orders(serverA, clock: clock)
    let b = orders(serverB, clock: clock)
    let book = Order(id: 1, item: "book")
    try await a.insert(book)
    try await a.insert(Order(id: 2, item: "lamp"))
    try await a.insert(Order(id: 3, item: "chair"))
    show("insert orders 1, 2, 3", book.state)
    show("try await book.pay()", try await book.pay())
    show("book.isPaid, book.canShip", "\(book.isPaid), \(book.canShip)")

    // Two servers load order 2 at the same version; one cancels, the other's pay loses the race.
    let onA = try await a.load(2)!
    let onB = try await b.load(2)!
    show("server A: try await order.cancel()", try await onA.cancel())
    do {
      try await onB.pay()
    } catch {
      show("server B: try await order.pay()", error)  // P4: a conflict, never an overwrite
    }
    show("server B's order.state after the race", onB.state)

    // The application's own statement and a fire commit together (or neither).
    try await b.withTransaction { tx in
      try await tx.connection.query("INSERT INTO invoices (order_id) VALUES (1)", logger: logger)
      try await tx.fire(.ship, on: 1)
    }
    show("ids(in: .shipped)", try await a.ids(in: .shipped))
    show("deliverOutbox(limit: 10)", try await a.deliverOutbox(limit: 10))

    // Order 3's payment deadline is a row in sm_deadlines: any server's scheduler fires it once.
    clock.advance(by: .seconds(3600))
    show("fireDueTimeouts(limit: 10) on server B", try await b.fireDueTimeouts(limit: 10))
    show("fireDueTimeouts(limit: 10) on server A", try await a.fireDueTimeouts(limit: 10))
    show("order 3", try await a.load(3)!.state)
    show("history(of: 3).last", try await a.history(of: 3).last.map { "\($0.cause): \($0.event)" }!)
    try await admin.query("DROP SCHEMA orders_example CASCADE", logger: logger)
  }
}

guard let url = CommandLine.arguments.dropFirst().first ?? ProcessInfo.processInfo.environment["DATABASE_URL"] else {
  print("usage: swift run --traits PostgreSQL OrdersPostgres postgres://USER@HOST:PORT/DATABASE")
  exit(2)
}
try await run(url)
#else
print("OrdersPostgres keeps its orders in PostgreSQL, which needs the package trait PostgreSQL:")
print("  swift run --traits PostgreSQL OrdersPostgres postgres://postgres@127.0.0.1:5432/postgres")
#endif
