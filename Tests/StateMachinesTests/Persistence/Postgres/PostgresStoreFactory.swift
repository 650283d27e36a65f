// The conformance suite's PostgreSQL stores: a real server (STATEMACHINES_PG_URL, started by
// .ci/run, Persistence §9), a schema of its own per test, one table per persisted class,
// created as an application would.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesPostgres

/// The server the PostgreSQL tests run against, or `nil` when none is configured.
let postgresTestURL = ProcessInfo.processInfo.environment["STATEMACHINES_PG_URL"]

/// PgBouncer in front of that server (STATEMACHINES_PGBOUNCER_URL: transaction pooling, 4 server
/// connections per database), or `nil` when none is configured.
let postgresPoolerURL = ProcessInfo.processInfo.environment["STATEMACHINES_PGBOUNCER_URL"]

/// A persisted test class as a PostgreSQL record, with the table an application would create for it.
protocol PostgresTestRecord: PostgresStateMachineRecord, Codable {
  /// The class's own columns (the id first), as SQL column definitions.
  static var columnDefinitions: String { get }
}

extension StoreOrder: PostgresTestRecord {
  static let postgresTableName = "store_orders"
  static let postgresColumns = ["id", "shippable", "payments", "failOnEntry"]
  static let columnDefinitions =
    #"id bigint PRIMARY KEY, shippable boolean NOT NULL, payments bigint NOT NULL, "failOnEntry" boolean NOT NULL"#

  convenience init(postgresRow row: PostgresRow) throws {
    let (id, shippable, payments, failOnEntry) = try row.decode((Int, Bool, Int, Bool).self)
    self.init(id: id)
    self.shippable = shippable
    self.payments = payments
    self.failOnEntry = failOnEntry
  }

  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(shippable)
    binds.append(payments)
    binds.append(failOnEntry)
    return binds
  }
}

extension StorePlayer: PostgresTestRecord {
  static let postgresTableName = "store_players"
  static let postgresColumns = ["id"]
  static let columnDefinitions = "id bigint PRIMARY KEY"
  convenience init(postgresRow row: PostgresRow) throws { self.init(id: try row.decode(Int.self)) }
  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    return binds
  }
}

extension StoreRing: PostgresTestRecord {
  static let postgresTableName = "store_rings"
  static let postgresColumns = ["id", "enabled"]
  static let columnDefinitions = "id bigint PRIMARY KEY, enabled boolean NOT NULL"
  convenience init(postgresRow row: PostgresRow) throws {
    let (id, enabled) = try row.decode((Int, Bool).self)
    self.init(id: id)
    self.enabled = enabled
  }
  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(enabled)
    return binds
  }
}

extension StoreSwitch: PostgresTestRecord {
  static let postgresTableName = "store_switches"
  static let postgresColumns = ["id", "jams"]
  static let columnDefinitions = "id bigint PRIMARY KEY, jams bigint NOT NULL"
  convenience init(postgresRow row: PostgresRow) throws {
    let (id, jams) = try row.decode((Int, Int).self)
    self.init(id: id)
    self.jams = jams
  }
  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(jams)
    return binds
  }
}

extension StoreKiosk: PostgresTestRecord {
  static let postgresTableName = "store_kiosks"
  static let postgresColumns = ["id"]
  static let columnDefinitions = "id bigint PRIMARY KEY"
  convenience init(postgresRow row: PostgresRow) throws { self.init(id: try row.decode(Int.self)) }
  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    return binds
  }
}

/// A running client on the test server whose connections use one schema of their own; the client
/// stops when the last reference goes (at the end of the test).
final class PostgresTestDatabase: Sendable {
  let client: PostgresClient
  let schema: String
  private let running: Task<Void, Never>

  /// A database on the server of `url`, by default the test server (STATEMACHINES_PG_URL), with
  /// a pool of at most `connections`, in `schema` (by default a new one of its own).
  init(url: String? = postgresTestURL, schema: String? = nil, connections: Int = 6) {
    // Without a server the suite is disabled and no connection is ever opened.
    let url = url ?? "postgres://postgres@127.0.0.1:1/none"
    guard let components = URLComponents(string: url), let host = components.host else {
      fatalError("STATEMACHINES_PG_URL is not a postgres:// URL: \(url)")
    }
    self.schema = schema ?? "sm_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
    var configuration = PostgresClient.Configuration(
      host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
      password: components.password, database: String(components.path.dropFirst()), tls: .disable)
    // `public` is the server's default, and PgBouncer refuses a `search_path` startup parameter.
    if self.schema != "public" { configuration.options.additionalStartupParameters = [("search_path", self.schema)] }
    configuration.options.maximumConnections = connections
    let client = PostgresClient(configuration: configuration)
    self.client = client
    running = Task { await client.run() }
  }

  deinit {
    running.cancel()
  }

  /// A new database on the test server (`name`, dropped first when it exists; by default a new
  /// name), in its `public` schema: for a test that reads what only a database of its own holds
  /// (`pg_stat_statements` by database), or that reaches it through the pooler.
  static func created(_ name: String? = nil, connections: Int = 6) async throws -> (database: PostgresTestDatabase, name: String) {
    guard let url = postgresTestURL, var components = URLComponents(string: url) else {
      throw PostgresTestFailure("needs STATEMACHINES_PG_URL")
    }
    let name = name ?? "sm_db_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
    let administrator = PostgresTestDatabase(connections: 1)
    try await administrator.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    try await administrator.execute("CREATE DATABASE \(name)")
    components.path = "/\(name)"
    return (PostgresTestDatabase(url: components.string, schema: "public", connections: connections), name)
  }

  /// Runs `sql` on the test schema.
  func execute(_ sql: String) async throws {
    _ = try await query(sql)
  }

  /// The rows of `sql`, on a pooled connection that is still open. After a test ends a session,
  /// the pool can hand that connection out once more, and postgres-nio (1.33) may never answer a
  /// query sent on it (seen as a test that hung).
  func query(_ sql: String) async throws -> [PostgresRow] {
    // The pool notices a closed connection only after a while: look again, for up to 5 s.
    for attempt in 0..<100 {
      if attempt > 0 { try await Task.sleep(for: .milliseconds(50)) }
      let rows: [PostgresRow]?
      do {
        rows = try await client.withConnection { connection -> [PostgresRow]? in
          guard !connection.isClosed else { return nil }
          return try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresStepLogger.logger).collect()
        }
      } catch {
        // postgres-nio's description hides the server's message.
        throw PostgresTestFailure("\(sql): \(String(reflecting: error))")
      }
      if let rows { return rows }
    }
    throw PostgresTestFailure("\(sql): every pooled connection handed out was closed")
  }

  /// Creates the schema, the library's tables and `Record`'s table, when missing.
  func prepare<Record: PostgresTestRecord>(_ type: Record.Type) async throws {
    try await execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
    try await PostgresStateMachineTables.create(on: client)
    try await execute("CREATE TABLE IF NOT EXISTS \(Record.postgresTableName) (\(Record.columnDefinitions))")
    try await PostgresStateMachineTables.addMachineColumns(to: Record.postgresTableName, on: client)
  }
}

/// Makes PostgreSQL stores for the conformance suite, all in one new schema.
struct PostgresStoreFactory: StoreFactory {
  let database = PostgresTestDatabase()

  func makeStore<Model: StoreManagedStateMachine & Codable>(
    _ type: Model.Type, clock: StoreClock, outbox: [String]
  ) async throws -> any StateMachineStore<Model> {
    guard let record = Model.self as? any PostgresTestRecord.Type else {
      throw PostgresTestFailure("\(Model.self) is not a PostgresTestRecord")
    }
    let store: Any = try await open(record, clock: clock, outbox: outbox)
    return store as! any StateMachineStore<Model>
  }

  private func open<Record: PostgresTestRecord>(_ type: Record.Type, clock: StoreClock, outbox: [String]) async throws
    -> Any
  {
    try await database.prepare(Record.self)
    var configuration = StoreConfiguration<Record>()
    for event in outbox {
      configuration.outbox(after: event, topic: event) { _, transition in ["from": transition.from, "to": transition.to] }
    }
    return PostgresStateMachineStore<Record>(database.client, clock: clock, configuration: configuration)
  }

  func handle<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void
  ) {
    (store as? any PostgresHandling)?.register(topic, handler)
  }

  func overwrite<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, id: Model.StoreID, with machine: StoredMachineState
  ) async throws {
    guard let record = Model.self as? any PostgresTestRecord.Type else { return }
    let history = try machine.history.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    var binds = PostgresBindings()
    binds.append(machine.state)
    binds.append(machine.version)
    binds.append(machine.isTerminated)
    binds.append(history)
    binds.append(id.description)
    try await database.client.query(
      PostgresQuery(
        unsafeSQL: "UPDATE \(record.postgresTableName) SET state = $1, sm_version = $2, sm_terminated = $3, "
          + "sm_history = CAST($4 AS jsonb) WHERE CAST(id AS text) = $5",
        binds: binds),
      logger: PostgresStepLogger.logger)
  }
}

/// Registers outbox handlers on any PostgreSQL store, whatever its class.
protocol PostgresHandling {
  func register(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void)
}

extension PostgresStateMachineStore: PostgresHandling {
  func register(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    handle(topic, handler)
  }
}

struct PostgresTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
#endif
