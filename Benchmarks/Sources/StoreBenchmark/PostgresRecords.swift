// The persisted classes of the PostgreSQL store benchmark and their tables, created
// as an application would: its own columns, then the store's machine columns.

import Foundation
import PostgresNIO
import StateMachines
import StateMachinesPostgres

/// `flip` goes off → on → off and has no code: the event the store's single-statement fast path
/// is for (Persistence §6). `turn` makes the same moves behind a guard that always passes, so it
/// takes the locked step (`SELECT … FOR UPDATE`, compare-and-set, history) whether or not the
/// store has a fast path: S1 and S2 measure that step.
@StateMachine
final class PostgresToggle: PostgresStateMachineRecord, @unchecked Sendable {
  static let postgresTableName = "toggles"
  static let postgresColumns = ["id"]
  var id: Int
  var storeID: Int { id }
  init(id: Int) { self.id = id }

  convenience init(postgresRow row: PostgresRow) throws { self.init(id: try row.decode(Int.self)) }

  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    return binds
  }

  static let stateMachine = StateMachineDefinition<PostgresToggle> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("flip", transitionFrom: "off", to: "on")
    sm.when("flip", transitionFrom: "on", to: "off")
    sm.when("turn", transitionFrom: "off", to: "on").guarded { _ in true }
    sm.when("turn", transitionFrom: "on", to: "off").guarded { _ in true }
  }
}

/// `start` enters `waiting`, which arms a durable deadline row; `stop` leaves it, which deletes
/// the row (S3, P8).
@StateMachine
final class PostgresCountdown: PostgresStateMachineRecord, @unchecked Sendable {
  static let postgresTableName = "countdowns"
  static let postgresColumns = ["id"]
  var id: Int
  var storeID: Int { id }
  init(id: Int) { self.id = id }

  convenience init(postgresRow row: PostgresRow) throws { self.init(id: try row.decode(Int.self)) }

  func postgresBindings() throws -> PostgresBindings {
    var binds = PostgresBindings()
    binds.append(id)
    return binds
  }

  static let stateMachine = StateMachineDefinition<PostgresCountdown> { sm in
    sm.addState("idle")
    sm.addState("waiting")
    sm.when("start", transitionFrom: "idle", to: "waiting")
    sm.when("stop", transitionFrom: "waiting", to: "idle")
    sm.when("expire", transitionFrom: "waiting", to: "idle", after: .seconds(3600))
  }
}

/// The benchmark's database rows. Every case and every pgbench run has rows of its own, one per
/// concurrent task (`base + task`), so no two tasks ever wait on each other's row lock.
enum PostgresRows {
  /// The most concurrent tasks a case runs (rows per case).
  static let perCase = 100
  /// The first row of pgbench's compare-and-set runs; the runs at 1, 8 and 32 clients start at
  /// 7000, 7100 and 7200 (the script passes the base).
  static let pgbenchCompareAndSet = 7000
  /// The first row of pgbench's locked-transaction runs (8000, 8100, 8200).
  static let pgbenchLocked = 8000
  /// The first row of pgbench's runs of the store's fast-path statement (9000, 9100, 9200).
  static let pgbenchFast = 9000
  /// The first row of pgbench's prepared runs of the minimal statement (11000, 11100, 11200).
  static let pgbenchMinimal = 11000
}

/// A `PostgresClient` on the server at `url`, with a pool big enough for every task. With
/// `warmPool`, every connection is a minimum connection and, unless `keepAlive`, none is kept
/// alive: postgres-nio's pool otherwise schedules an idle-timeout and a keep-alive timer each time
/// a query gives its connection back (a message to the pool's task and a sleeping task that the
/// next lease cancels), which cost the client about 40 % of its CPU per event (README, *The
/// PostgreSQL store*).
func makePostgresClient(_ url: String, connections: Int, warmPool: Bool = false, keepAlive: Bool = false) throws
  -> PostgresClient
{
  guard let components = URLComponents(string: url), let host = components.host else {
    throw PostgresBenchmarkFailure("not a postgres:// URL: \(url)")
  }
  var configuration = PostgresClient.Configuration(
    host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
    password: components.password, database: String(components.path.dropFirst()), tls: .disable)
  configuration.options.maximumConnections = connections
  if warmPool {
    configuration.options.minimumConnections = connections
    if !keepAlive { configuration.options.keepAliveBehavior = nil }
  }
  return PostgresClient(configuration: configuration)
}

/// Creates the library's tables and the records' tables (dropping earlier ones), with a row per
/// task of every case and of every pgbench run, each in its initial state at version 0.
func createPostgresTables(_ client: PostgresClient) async throws {
  let logger = PostgresStepLogger.logger
  for table in ["toggles", "countdowns", "sm_transitions", "sm_deadlines", "sm_outbox", "sm_instances", "sm_machines"] {
    try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table)"), logger: logger)
  }
  try await PostgresStateMachineTables.create(on: client)
  for table in ["toggles", "countdowns"] {
    try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (id bigint PRIMARY KEY)"), logger: logger)
    try await PostgresStateMachineTables.addMachineColumns(to: table, on: client)
  }
  // The rows of the toggle cases and of pgbench, in state `off` at version 0, as the store's
  // `insert` writes them (a toggle arms no deadline); the countdowns through the store.
  let toggleBases = PostgresCaseID.allCases.filter { $0 != .s3 }.map(\.base)
    + [PostgresRows.pgbenchCompareAndSet, PostgresRows.pgbenchLocked, PostgresRows.pgbenchFast, PostgresRows.pgbenchMinimal]
  for base in toggleBases {
    try await client.query(
      "INSERT INTO toggles (id, state) SELECT g, 'off' FROM generate_series(\(base), \(base + 3 * PostgresRows.perCase - 1)) g",
      logger: logger)
  }
  let countdowns = PostgresStateMachineStore<PostgresCountdown>(client)
  for id in PostgresCaseID.s3.base..<PostgresCaseID.s3.base + PostgresRows.perCase {
    try await countdowns.insert(PostgresCountdown(id: id))
  }
  try await client.query("ANALYZE", logger: logger)
}

/// A failure of the benchmark itself: a step that did not do what it should.
struct PostgresBenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
