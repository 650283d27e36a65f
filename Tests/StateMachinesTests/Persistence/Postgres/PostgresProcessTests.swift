// The PostgreSQL store across real processes (Persistence §9, PostgreSQL half): workers of
// `sm-store-worker` racing on one table, killed with SIGKILL inside a transaction, a connection
// cut under a held row lock. Each test checks the database with SQL afterwards, from the test's
// own connection.

#if PostgreSQL
import Foundation
import Testing
@_spi(Testing) import StateMachinesPostgres

/// Serialized: each test already runs several processes on a few cores, and some time a fire.
@Suite(
  "Processes on one PostgreSQL database (Persistence §9)", .serialized,
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(3)))
struct PostgresProcessTests {
  let schema = PostgresWorkerSchema()

  @Test("PostgreSQL generated method race: 2 processes at one version call ring.advance(); one commits, one conflicts (P4)")
  func generatedMethodRace() async throws {
    try await expectOneOfTwoProcessesCommits { mode, options in schema.arguments(mode, options) }
  }

  @Test("PostgreSQL race: 8 processes × 500 events on 20 rows keep the exact invariants (P2, P3, P4, P16)")
  func race() async throws {
    try await Self.race(on: schema)
  }

  /// The race, its invariants and two dispatchers draining the outbox, on `schema`.
  static func race(on schema: PostgresWorkerSchema) async throws {
    let ledger = temporaryPath("pg-race.ledger")
    // Twenty rings; the last is disabled, so its guard refuses every `advance`.
    _ = try await StoreWorker.run(schema.arguments("setup", ["--rows", "20", "--disabled", "1"])).succeeded()
    let start = StoreWorker.wallClock(after: 1000)
    let runs = try await StoreWorker.runAll(
      (1...8).map { worker in
        schema.arguments(
          "race",
          [
            "--rows", "20", "--events", "500", "--mode", worker % 2 == 0 ? "stale" : "id", "--seed", "\(worker)",
            "--start-at", start,
          ])
      })
    var successes = 0
    var reloaded = 0
    for run in runs {
      let summary = try run.succeeded()
      // No error but rejections and conflicts (retries exhausted); deadlocks were retried
      // inside the store (Persistence §9).
      #expect(summary.strings("errors") == [], "\(run)")
      let outcomes = [summary.int("successes"), summary.int("rejections"), summary.int("conflicts")].compactMap { $0 }
      #expect(outcomes.count == 3 && outcomes.reduce(0, +) == 500, "\(run)")
      successes += summary.int("successes") ?? 0
      reloaded += summary.int("reloaded") ?? 0
    }
    #expect(successes > 0)
    // The stale workers' objects were stale, and the store reloaded them (P4).
    #expect(reloaded > 0)

    // Σ successes = Σ sm_version = count(sm_transitions), and the per-row invariants (P2, P3, P4).
    let (transitions, violations) = try await schema.raceInvariants()
    #expect(transitions == successes)
    #expect(violations == [])
    // The guard reads the column: the disabled ring never moved.
    #expect(try await schema.int("SELECT sm_version FROM rings WHERE id = 20") == 0)
    // One outbox message per transition, written with it (P16).
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_outbox") == transitions)

    // Two dispatchers drain the outbox at once: the ledger, keyed by outbox id, gets every message.
    let deliverStart = StoreWorker.wallClock(after: 500)
    let deliveries = try await StoreWorker.runAll(
      [0, 1].map { _ in schema.arguments("deliver", ["--ledger", ledger, "--start-at", deliverStart]) })
    let delivered = try deliveries.map { try $0.succeeded().int("delivered") ?? -1 }.reduce(0, +)
    #expect(delivered == transitions)
    let lines = try ledgerLines(ledger)
    // Exactly count(sm_transitions) distinct ids; no process died, so each lease held and no
    // message went out twice (Persistence §8).
    #expect(Set(lines.map { $0[0] }).count == transitions)
    #expect(lines.count == transitions)
    // The messages are the transitions: one per (row, version) of the history.
    #expect(Set(lines.map { "\($0[1]) \($0[2])" }) == (try await schema.transitionKeys()))
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_outbox") == 0)
  }

  @Test(
    "PostgreSQL kill -9 at a crash point: nothing or everything of the step survives, the lock is freed within 1 s (P1, P5, P16)",
    arguments: PostgresStoreCrashPoint.allCases)
  func killAtCrashPoint(_ point: PostgresStoreCrashPoint) async throws {
    try await Self.kill(at: point, on: schema)
  }

  /// A worker killed at `point`, then what survived, on `schema`.
  static func kill(at point: PostgresStoreCrashPoint, on schema: PostgresWorkerSchema) async throws {
    let ledger = temporaryPath("pg-kill.ledger")
    let marker = temporaryPath("pg-kill.marker")
    try FileManager.default.createDirectory(atPath: marker, withIntermediateDirectories: true)
    let afterMark = "\(marker)/after-advance-1"
    _ = try await StoreWorker.run(schema.arguments("setup", ["--rows", "1"])).succeeded()

    let crashed = try await StoreWorker.run(
      schema.arguments("crash", ["--id", "1", "--at", point.rawValue, "--marker", marker]))
    #expect(crashed.wasKilled, "the worker was not killed at \(point): \(crashed)")

    if point == .afterCommit {
      // Committed: row advanced, history and outbox present; `after` never ran (P5).
      let (row, history, outbox) = try await schema.ring(1)
      #expect(row == "s1@1")
      #expect(history == ["s0->s1@1"])
      #expect(outbox == ["1@1"])
      #expect(!FileManager.default.fileExists(atPath: afterMark))
      // Another process delivers the message, once (P16).
      let delivery = try await StoreWorker.run(schema.arguments("deliver", ["--ledger", ledger])).succeeded()
      #expect(delivery.int("delivered") == 1)
      let again = try await StoreWorker.run(schema.arguments("deliver", ["--ledger", ledger])).succeeded()
      #expect(again.int("delivered") == 0)
      let lines = try ledgerLines(ledger)
      #expect(lines.count == 1 && lines.first?.suffix(2) == ["1", "1"], "\(lines)")
    } else {
      // Not committed: the server rolled the step back with its connection (P1).
      let (row, history, outbox) = try await schema.ring(1)
      #expect(row == "s0@0")
      #expect(history == [])
      #expect(outbox == [])
      #expect(!FileManager.default.fileExists(atPath: afterMark))
      // The dead process's row lock is gone: another process locks the row and fires within 1 s (P3).
      let fired = try await StoreWorker.run(
        schema.arguments("fire", ["--id", "1", "--event", "advance", "--marker", marker])
      ).succeeded()
      #expect(fired.string("error") == nil, "\(fired.values)")
      #expect(fired.string("to") == "s1" && fired.int("version") == 1)
      #expect((fired.int("ms") ?? .max) < 1000, "\(fired.values)")
      let after = try await schema.ring(1)
      #expect(after.row == "s1@1")
      #expect(after.history == ["s0->s1@1"])
      #expect(after.outbox == ["1@1"])
      // The marker is how a completed step shows its `after` callback ran.
      #expect(FileManager.default.fileExists(atPath: afterMark))
    }
  }

  @Test("PostgreSQL lost connection mid-step: rolled back, the row unlocked for others within 1 s, the holder told (P1, P3, P6)")
  func lostConnectionMidStep() async throws {
    _ = try await StoreWorker.run(schema.arguments("setup", ["--rows", "1"])).succeeded()
    // A worker locks ring 1, writes its step and holds the transaction open for 3 s.
    let name = "sm-hold-\(UUID().uuidString.prefix(8))"
    let holder = try StoreWorker.start(
      schema.arguments("hold", ["--id", "1", "--at", "afterWrite", "--hold", "3000", "--name", name]))
    var backend: Int?
    let waited = ContinuousClock.now
    while backend == nil, ContinuousClock.now - waited < .seconds(30) {
      backend = try await schema.int(
        "SELECT pid::bigint FROM pg_stat_activity WHERE application_name = '\(name)' AND state = 'idle in transaction'")
      if backend == nil { try await Task.sleep(for: .milliseconds(20)) }
    }
    guard let backend else {
      holder.killProcess()
      let run = await holder.finish()
      Issue.record("the worker never held its transaction open: \(run)")
      return
    }
    // The step is written but not committed: others see the row as it was.
    #expect(try await schema.ring(1).row == "s0@0")
    // The server drops the worker's connection under the held lock.
    #expect(try await schema.rows("SELECT pg_terminate_backend(\(backend))").count == 1)
    // Rolled back, and the row is free: another process fires on it within 1 s.
    let fired = try await StoreWorker.run(schema.arguments("fire", ["--id", "1", "--event", "advance"])).succeeded()
    #expect(fired.string("error") == nil, "\(fired.values)")
    #expect(fired.string("to") == "s1" && fired.int("version") == 1)
    #expect((fired.int("ms") ?? .max) < 1000, "\(fired.values)")
    // The holder learns that its step failed, with a typed error, once its hold ends: the server
    // ended its session, so the store either finds the connection closed before it sends COMMIT
    // or gets the server's FATAL error (57P01). Before the store looked at the connection before
    // sending, postgres-nio could leave that COMMIT waiting forever. (`finish` kills a worker that
    // outlives its patience: a hang shows as a signal.)
    let held = await holder.finish()
    #expect(!held.signaled, "the holder did not return after its hold: \(held)")
    let summary = try held.succeeded()
    let error = summary.string("error") ?? ""
    #expect(error.contains("the connection was closed") || error.contains("57P01"), "\(summary.values)")
    // Nothing of its step is in the database.
    let (row, history, outbox) = try await schema.ring(1)
    #expect(row == "s1@1")
    #expect(history == ["s0->s1@1"])
    #expect(outbox == ["1@1"])
  }
}
#endif
