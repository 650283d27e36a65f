// The PostgreSQL store behind a real PgBouncer (Many application servers, poolers): Debian's
// 1.18 in transaction pooling with 4 server connections per database for 8 client processes
// (.ci/postgres `start_pgbouncer`). With `pgbouncer=true` the multi-process race and its outbox,
// kill -9 at each crash point and the schedulers keep Persistence §9's exact invariants. With the
// default options the store may fail there, but only with an error naming `pgbouncer=true`:
// never a fire applied twice, nor a fire told failed and applied, nor another process's statement
// run. Each test has a database of its own; the test reads it directly, the workers through the
// pooler.

#if PostgreSQL
import Foundation
import Testing
@_spi(Testing) import StateMachinesPostgres

@Suite(
  "Processes through PgBouncer (Many application servers)", .serialized,
  .enabled(
    if: postgresTestURL != nil && postgresPoolerURL != nil,
    "needs STATEMACHINES_PG_URL and STATEMACHINES_PGBOUNCER_URL (.ci/run starts both)"),
  .timeLimit(.minutes(4)))
struct PostgresPoolerTests {
  @Test("PgBouncer, pgbouncer=true: 8 processes × 500 events keep the race invariants; two dispatchers deliver each message once (P2, P3, P4, P16)")
  func race() async throws {
    try await PostgresProcessTests.race(on: .pooled(pgbouncer: true))
  }

  @Test(
    "PgBouncer, pgbouncer=true: kill -9 at a crash point leaves nothing or everything of the step, the lock freed within 1 s (P1, P5, P16)",
    arguments: PostgresStoreCrashPoint.allCases)
  func killAtCrashPoint(_ point: PostgresStoreCrashPoint) async throws {
    try await PostgresProcessTests.kill(at: point, on: .pooled(pgbouncer: true))
  }

  @Test("PgBouncer, pgbouncer=true: 4 schedulers after a downtime fire each due deadline exactly once (P9, P10, P15)")
  func restartWithDueTimeouts() async throws {
    try await PostgresProcessTests.restart(on: .pooled(pgbouncer: true))
  }

  @Test("PgBouncer, pgbouncer=true: 2 processes polling one due deadline, 50 times, fire it once each time (P10)")
  func twoPollersFireOnce() async throws {
    try await PostgresProcessTests.twoPollers(on: .pooled(pgbouncer: true))
  }

  @Test("PgBouncer, default options: 8 processes fail only with an error naming pgbouncer=true; every fire told applied has one history row, no fire two")
  func defaultOptions() async throws {
    let schema = try await PostgresWorkerSchema.pooled(pgbouncer: false)
    _ = try await StoreWorker.run(schema.pgbouncer(true).arguments("setup", ["--rows", "20"])).succeeded()
    let start = StoreWorker.wallClock(after: 1000)
    let runs = try await StoreWorker.runAll(
      (1...8).map { worker in
        schema.arguments(
          "race", ["--rows", "20", "--events", "150", "--mode", worker % 2 == 0 ? "stale" : "id", "--seed", "\(worker)", "--start-at", start])
      })
    var successes = 0
    for run in runs {
      guard let summary = try? run.succeeded() else {
        // A worker that could not even start its race (its first reads failed) says why.
        #expect(run.stdout.contains("pgbouncer=true"), "\(run)")
        continue
      }
      let errors = summary.strings("errors")
      let outcomes = [summary.int("successes"), summary.int("rejections"), summary.int("conflicts")].compactMap { $0 }
      #expect(outcomes.count == 3 && outcomes.reduce(0, +) + errors.count == 150, "\(run)")
      for error in errors {
        #expect(error.contains("pgbouncer=true"), "a failure that does not name pgbouncer=true: \(error)")
      }
      successes += summary.int("successes") ?? 0
    }
    // Σ successes = count(sm_transitions): a fire told failed was not applied, none twice (P2, P3).
    let (transitions, violations) = try await schema.raceInvariants()
    #expect(transitions == successes)
    #expect(violations == [])
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_outbox") == transitions)
  }

  /// `sm_one_session` has a pool of one server connection (.ci/postgres): every transaction of
  /// every client runs in the same server session.
  @Test("PgBouncer, default options, one server session shared by 2 processes: both prepare there under their own names, and every fire is their own")
  func oneSessionSharedByTwoProcesses() async throws {
    let schema = try await PostgresWorkerSchema.pooled(pgbouncer: false, name: "sm_one_session")
    _ = try await StoreWorker.run(schema.arguments("setup", ["--rows", "5"])).succeeded()
    let start = StoreWorker.wallClock(after: 1000)
    let runs = try await StoreWorker.runAll(
      (1...2).map { worker in
        schema.arguments("race", ["--rows", "5", "--events", "300", "--mode", "id", "--seed", "\(worker)", "--start-at", start])
      })
    var successes = 0
    for run in runs {
      let summary = try run.succeeded()
      // The session never changes, so a statement the store prepared is always there: no error
      // (with names that restart at 1 in every process, the second's Parse failed with 42P05).
      #expect(summary.strings("errors") == [], "\(run)")
      successes += summary.int("successes") ?? 0
    }
    #expect(successes > 0)
    let (transitions, violations) = try await schema.raceInvariants()
    #expect(transitions == successes)
    #expect(violations == [])
    // The session holds both processes' statements, each name once, under two name tokens
    // (`sm_<token>_<n>`); the workers have ended, and transaction pooling resets no session.
    let names = try await schema.poolerDatabase().query("SELECT name FROM pg_prepared_statements WHERE NOT from_sql")
      .map { try $0.decode(String.self) }
    #expect(Set(names).count == names.count)
    let tokens = Set(names.compactMap { $0.split(separator: "_").dropFirst().first.map(String.init) })
    #expect(tokens.count == 2, "\(names)")
  }
}
#endif
