// The PostgreSQL store benchmark: `StoreBenchmark postgres [options]`, run by
// Benchmarks/postgres-benchmark.sh, which starts the server and runs pgbench first. See
// Benchmarks/README.md.
//
//   --url URL          the server (default: $STATEMACHINES_PG_URL)
//   --setup            only create the tables and rows (dropping earlier ones), then exit
//   --clients 1,8,32   the concurrent tasks of each level
//   --duration 5       measured seconds per case, level and round
//   --warmup 1         warm-up seconds before each measured run
//   --rounds 3         rounds per level, alternately forward and backward over the cases
//   --only B0,fast     some cases
//   --pgbench FILE     pgbench's figures (the script's TSV) to put in the table and the goals
//   --nio-executor     run Swift concurrency's global executor on NIO's event loops (see below)
//   --default-pool     postgres-nio's default pool (idle and keep-alive timers), not a warm one
//   --keep-alive       a warm pool that keeps its connections alive (postgres-nio's keep-alive)

import Foundation
import PostgresNIO
import StateMachinesPostgres

/// The command line of `StoreBenchmark postgres`.
struct PostgresOptions {
  var url = ProcessInfo.processInfo.environment["STATEMACHINES_PG_URL"]
  var setup = false
  var clients = [1, 8, 32]
  var duration = 5.0
  var warmup = 1.0
  var rounds = 3
  var only: Set<String>?
  var pgbench: String?
  var nioExecutor = false
  var warmPool = true
  var keepAlive = false

  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    func value(_ option: String) throws -> String {
      guard let next = rest.popFirst() else { throw PostgresBenchmarkFailure("\(option) needs a value") }
      return next
    }
    func number(_ option: String) throws -> Double {
      let text = try value(option)
      guard let number = Double(text), number > 0 else { throw PostgresBenchmarkFailure("\(option): a number > 0, not \(text)") }
      return number
    }
    while let option = rest.popFirst() {
      switch option {
      case "--url": url = try value(option)
      case "--setup": setup = true
      case "--clients": clients = try value(option).split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
      case "--duration": duration = try number(option)
      case "--warmup": warmup = try number(option)
      case "--rounds": rounds = Int(try number(option))
      case "--only": only = Set(try value(option).split(separator: ",").map(String.init))
      case "--pgbench": pgbench = try value(option)
      case "--nio-executor": nioExecutor = true
      case "--default-pool": warmPool = false
      case "--keep-alive": keepAlive = true
      default: throw PostgresBenchmarkFailure("unknown option \(option)")
      }
    }
    guard url != nil else { throw PostgresBenchmarkFailure("no server: pass --url or set STATEMACHINES_PG_URL") }
    guard !clients.isEmpty, clients.max()! <= PostgresRows.perCase else {
      throw PostgresBenchmarkFailure("--clients: 1 to \(PostgresRows.perCase) tasks")
    }
  }
}

/// The figures of one case: per level (tasks), one result per round.
typealias PostgresResults = [PostgresCaseID: [Int: [PostgresLoadResult]]]

/// Runs the benchmark (or only its setup) and prints the tables.
func runPostgresBenchmark(_ arguments: [String]) async throws {
  let options: PostgresOptions
  do {
    options = try PostgresOptions(arguments)
  } catch {
    FileHandle.standardError.write(Data("StoreBenchmark postgres: \(error)\n".utf8))
    exit(2)
  }
  // An application's choice that SwiftNIO offers to servers: the tasks run on the event loops
  // that read the answers, so an answer resumes its task without waking a thread of the
  // cooperative pool. Every row runs with it or without it.
  if options.nioExecutor, !NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() {
    FileHandle.standardError.write(Data("StoreBenchmark postgres: --nio-executor: too late to install\n".utf8))
    exit(2)
  }
  let client = try makePostgresClient(
    options.url!, connections: options.clients.max()!, warmPool: options.warmPool && !options.setup,
    keepAlive: options.keepAlive)
  let running = Task { await client.run() }
  defer { running.cancel() }
  if options.setup {
    try await createPostgresTables(client)
    print("StoreBenchmark postgres: tables and rows created")
    return
  }
  let pgbench = try options.pgbench.map(readPgbenchFigures) ?? [:]
  let version = try await client.query("SHOW server_version", logger: PostgresStepLogger.logger).collect().first!
    .decode(String.self)
  print("StoreBenchmark postgres: PostgreSQL \(version), \(ProcessInfo.processInfo.activeProcessorCount) cores,", terminator: " ")
  print("\(options.rounds) rounds x (\(options.warmup) s warm-up + \(options.duration) s) per case and level,", terminator: " ")
  print("\(options.nioExecutor ? "NIO's event loops as the global executor" : "the default global executor"),", terminator: " ")
  let pool = options.keepAlive ? "a warm pool with keep-alive" : "a warm pool (no idle or keep-alive timers)"
  print("\(options.warmPool ? pool : "postgres-nio's default pool"), \(Date())")

  let cases = makePostgresCases(client).filter { options.only?.contains($0.id.rawValue) ?? true }
  var results: PostgresResults = [:]
  var fired: [PostgresCaseID: Int] = [:]
  for clients in options.clients {
    for round in 0..<options.rounds {
      for c in round % 2 == 0 ? cases : cases.reversed() {
        let (warmup, duration) = (Duration.seconds(options.warmup), Duration.seconds(options.duration))
        let result: PostgresLoadResult
        if let batch = c.batch {
          // By hand as the fast path batches: two statements in flight, each with half the tasks' rows.
          let tasks = min(2, clients)
          let rows = clients / tasks
          result = try await closedLoop(clients: tasks, eventsPerCall: rows, warmup: warmup, duration: duration) { task in
            try await batch(task, rows)
          }
        } else {
          result = try await closedLoop(clients: clients, warmup: warmup, duration: duration, c.fire)
        }
        results[c.id, default: [:]][clients, default: []].append(result)
        fired[c.id, default: 0] += result.fired
        let line = String(format: "%@ x%d round %d: %.0f tps", c.id.rawValue, clients, round + 1, result.tps)
        FileHandle.standardError.write(Data((line + "\n").utf8))
      }
    }
  }
  try await checkPostgresRows(client, fired)
  printPostgresReport(cases.map(\.id), options.clients, results, pgbench)
}

/// Stops the process unless every event took its transition and wrote what it should: each
/// case's versions add up to its events, history rows as configured, no deadline left but those
/// of the countdowns now waiting.
func checkPostgresRows(_ client: PostgresClient, _ fired: [PostgresCaseID: Int]) async throws {
  let logger = PostgresStepLogger.logger
  for (id, events) in fired.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
    let (low, high) = (id.base, id.base + PostgresRows.perCase - 1)
    let versions = try await client.query(
      PostgresQuery(unsafeSQL: "SELECT COALESCE(SUM(sm_version), 0)::bigint FROM \(id.table) WHERE id BETWEEN \(low) AND \(high)"),
      logger: logger
    ).collect().first!.decode(Int64.self)
    let history = try await client.query(
      """
      SELECT count(*) FROM sm_transitions WHERE machine = \(id.table) AND entity_id::bigint BETWEEN \(low) AND \(high)
      """, logger: logger
    ).collect().first!.decode(Int64.self)
    let waiting = try await client.query(
      "SELECT count(*) FROM countdowns WHERE state = 'waiting' AND id BETWEEN \(low) AND \(high)", logger: logger
    ).collect().first!.decode(Int64.self)
    let deadlines = try await client.query(
      """
      SELECT count(*) FROM sm_deadlines WHERE machine = \(id.table) AND entity_id::bigint BETWEEN \(low) AND \(high)
      """, logger: logger
    ).collect().first!.decode(Int64.self)
    guard versions == events, history == (id.writesHistory ? Int64(events) : 0), deadlines == waiting else {
      throw PostgresBenchmarkFailure(
        "\(id.rawValue): \(events) events, versions \(versions), history rows \(history), deadlines \(deadlines)")
    }
  }
  print("checks: every row's version counts its events, history rows as configured, no deadline left behind")
}
