// The worker's PostgreSQL database (Persistence §9, PostgreSQL half): the server of
// `--db postgres://…`, in the test's schema (`--schema`), the worker classes as
// `PostgresStateMachineRecord`s in tables of their own. Through a pooler the URL names the
// test's own database and the schema is `public`: PgBouncer refuses a `search_path` startup
// parameter, and `pgbouncer=true` in the URL goes into every store's options.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines
@_spi(Testing) import StateMachinesPostgres

extension Ring: PostgresStateMachineRecord {
  static let postgresTableName = "rings"
  static let postgresColumns = ["id", "enabled"]

  convenience init(postgresRow row: PostgresRow) throws {
    let (id, enabled) = try row.decode((Int, Bool).self)
    self.init(id: id, enabled: enabled)
  }

  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(enabled)
    return binds
  }
}

extension Booking: PostgresStateMachineRecord {
  static let postgresTableName = "bookings"
  static let postgresColumns = ["id", "awaits_payment"]

  convenience init(postgresRow row: PostgresRow) throws {
    let (id, awaitsPayment) = try row.decode((Int, Bool).self)
    self.init(id: id, awaitsPayment: awaitsPayment)
  }

  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    binds.append(awaitsPayment)
    return binds
  }
}

extension Dial: PostgresStateMachineRecord {
  static let postgresTableName = "dials"
  static let postgresColumns = ["id"]

  convenience init(postgresRow row: PostgresRow) throws {
    self.init(id: try row.decode(Int.self))
  }

  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    return binds
  }
}

/// A running client on the test server, in the test's schema. The process ends without stopping
/// it: a worker's connections close with it, as a killed one's do.
struct PostgresWorkerDatabase: WorkerDatabase {
  let client: PostgresClient
  let schema: String
  /// The URL's settings (`pgbouncer=true`), for every store.
  let options: PostgresStoreOptions

  /// `name` becomes the connections' `application_name`, so that a test can find the worker's
  /// server backends in `pg_stat_activity`.
  init(url: String, schema: String, name: String?) throws {
    guard let components = URLComponents(string: url), let host = components.host else {
      throw WorkerFailure("not a postgres:// URL: \(url)")
    }
    var configuration = PostgresClient.Configuration(
      host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
      password: components.password, database: String(components.path.dropFirst()), tls: .disable)
    configuration.options.additionalStartupParameters = [("application_name", name ?? "sm-store-worker")]
    if schema != "public" { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
    configuration.options.maximumConnections = 4
    let client = PostgresClient(configuration: configuration)
    self.client = client
    self.schema = schema
    options = PostgresStoreOptions(connectionString: url)
    Task { await client.run() }
  }

  func createTables() async throws {
    try await execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
    try await PostgresStateMachineTables.create(on: client)
    try await execute("CREATE TABLE IF NOT EXISTS rings (id bigint PRIMARY KEY, enabled boolean NOT NULL)")
    try await PostgresStateMachineTables.addMachineColumns(to: "rings", on: client)
    try await execute("CREATE TABLE IF NOT EXISTS bookings (id bigint PRIMARY KEY, awaits_payment boolean NOT NULL)")
    try await PostgresStateMachineTables.addMachineColumns(to: "bookings", on: client)
    try await execute("CREATE TABLE IF NOT EXISTS dials (id bigint PRIMARY KEY)")
    try await PostgresStateMachineTables.addMachineColumns(to: "dials", on: client)
  }

  private func execute(_ sql: String) async throws {
    do {
      try await client.query(PostgresQuery(unsafeSQL: sql), logger: PostgresStepLogger.logger)
    } catch {
      throw WorkerFailure("\(sql): \(String(reflecting: error))")
    }
  }

  func rings(_ arguments: WorkerArguments) throws -> WorkerRings {
    let store = PostgresStateMachineStore<Ring>(client, configuration: try Ring.configuration(arguments), options: options)
    return WorkerRings(
      store: store, handle: { store.handle($0, $1) },
      onCrashPoint: { name, hook in
        guard let point = PostgresStoreCrashPoint(rawValue: name) else {
          throw WorkerFailure("no crash point '\(name)'")
        }
        store.onCrashPoint { reached in if reached == point { hook() } }
      })
  }

  func bookings(clock: StoreClock) -> any StateMachineStore<Booking> {
    PostgresStateMachineStore<Booking>(client, clock: clock, options: options)
  }

  func dials() -> (store: any StateMachineStore<Dial>, sharedStatements: @Sendable () -> Int) {
    let store = PostgresStateMachineStore<Dial>(client, options: options)
    return (store, { store.sharedFastStatements })
  }
}
#endif
