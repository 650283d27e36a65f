// The SQLite store across real processes (Persistence §9, SQLite half): workers of
// `sm-store-worker` racing on one file, killed with SIGKILL inside a transaction, and scheduler
// processes started after a kill. Each test checks the database with SQL afterwards, from a
// connection opened anew (WAL recovery on reopen).

#if SQLite
import Foundation
import GRDB
import Testing
@_spi(Testing) import StateMachinesSQLite

/// Serialized: each test already runs several processes on 2 cores, and the kill test times a fire.
@Suite("SQLite store across processes (Persistence §9)", .serialized, .timeLimit(.minutes(3)))
struct SQLiteProcessTests {
  /// Reads the database from a new connection, as a process that opens the file after the others.
  func read<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
    try DatabaseQueue(path: path).read(body)
  }

  /// One integer the query selects, from a new connection.
  func value(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws -> Int? {
    try read(path) { db in try Int.fetchOne(db, sql: sql, arguments: arguments) }
  }

  @Test("generated method race: 2 processes at one version call ring.advance(); one commits, one conflicts (P4)")
  func generatedMethodRace() async throws {
    let db = temporaryPath("generated-race.sqlite")
    try await expectOneOfTwoProcessesCommits { mode, options in [mode, "--db", db] + options }
  }

  @Test("race: 4 processes × 500 events on one file keep the exact invariants (P2, P3, P4, P16)")
  func race() async throws {
    let db = temporaryPath("race.sqlite")
    let ledger = temporaryPath("race.ledger")
    // Ten rings; the last is disabled, so its guard refuses every `advance`.
    _ = try await StoreWorker.run(["setup", "--db", db, "--rows", "10", "--disabled", "1"]).succeeded()
    let start = StoreWorker.wallClock(after: 500)
    let runs = try await StoreWorker.runAll(
      (1...4).map { worker in
        [
          "race", "--db", db, "--rows", "10", "--events", "500", "--mode", worker % 2 == 0 ? "stale" : "id",
          "--seed", "\(worker)", "--start-at", start,
        ]
      })
    var successes = 0
    var reloaded = 0
    for run in runs {
      let summary = try run.succeeded()
      // No error but rejections and conflicts (retries exhausted) (Persistence §9).
      #expect(summary.strings("errors") == [], "\(run)")
      let outcomes = [summary.int("successes"), summary.int("rejections"), summary.int("conflicts")].compactMap { $0 }
      #expect(outcomes.count == 3 && outcomes.reduce(0, +) == 500, "\(run)")
      successes += summary.int("successes") ?? 0
      reloaded += summary.int("reloaded") ?? 0
    }
    #expect(successes > 0)
    // The stale workers' objects were stale, and the store reloaded them (P4).
    #expect(reloaded > 0)

    // Σ successes = count(sm_transitions), and the per-row invariants (P2, P3, P4).
    let (transitions, violations) = try await StoreRaceInvariants.violations(table: "rings", initial: "s0") { sql in
      try value(db, sql)
    }
    #expect(transitions == successes)
    #expect(violations == [])
    // The guard reads the column: the disabled ring never moved.
    #expect(try value(db, "SELECT sm_version FROM rings WHERE id = 10") == 0)
    // One outbox message per transition, written with it (P16).
    #expect(try value(db, "SELECT COUNT(*) FROM sm_outbox") == transitions)

    // Two dispatchers drain the outbox at once: the ledger gets every message.
    let deliverStart = StoreWorker.wallClock(after: 300)
    let deliveries = try await StoreWorker.runAll(
      [0, 1].map { _ in ["deliver", "--db", db, "--ledger", ledger, "--start-at", deliverStart] })
    let delivered = try deliveries.map { try $0.succeeded().int("delivered") ?? -1 }.reduce(0, +)
    #expect(delivered == transitions)
    let lines = try String(contentsOfFile: ledger, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: " ").map(String.init)
    }
    // Exactly count(sm_transitions) distinct ids; no process died, so each lease held and no
    // message went out twice.
    #expect(Set(lines.map { $0[0] }).count == transitions)
    #expect(lines.count == transitions)
    // The messages are the transitions: one per (row, version) of the history.
    let keys = try read(db) { db in
      try Row.fetchAll(db, sql: "SELECT entity_id, version FROM sm_transitions WHERE machine = 'rings'")
        .map { "\($0["entity_id"] as String) \($0["version"] as Int)" }
    }
    #expect(Set(lines.map { "\($0[1]) \($0[2])" }) == Set(keys))
    #expect(try value(db, "SELECT COUNT(*) FROM sm_outbox") == 0)
  }

  @Test(
    "kill -9 at a crash point: nothing or everything of the step survives, the lock is freed (P1, P5, P16)",
    arguments: StoreCrashPoint.allCases)
  func killAtCrashPoint(_ point: StoreCrashPoint) async throws {
    let db = temporaryPath("kill-\(point.rawValue).sqlite")
    let ledger = temporaryPath("kill.ledger")
    let marker = temporaryPath("kill.marker")
    try FileManager.default.createDirectory(atPath: marker, withIntermediateDirectories: true)
    let afterMark = "\(marker)/after-advance-1"
    _ = try await StoreWorker.run(["setup", "--db", db, "--rows", "1"]).succeeded()

    let crashed = try await StoreWorker.run(["crash", "--db", db, "--id", "1", "--at", point.rawValue, "--marker", marker])
    #expect(crashed.wasKilled, "the worker was not killed at \(point): \(crashed)")
    // SQLite recovered the file on reopen.
    let integrity = try read(db) { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    #expect(integrity == "ok")
    // The committed row, its history and its outbox messages.
    let stored = {
      try self.read(db) { db in
        (
          try Row.fetchOne(db, sql: "SELECT state, sm_version FROM rings WHERE id = 1").map {
            "\($0["state"] as String)@\($0["sm_version"] as Int)"
          },
          try Row.fetchAll(db, sql: "SELECT from_state, to_state, version FROM sm_transitions").map {
            "\($0["from_state"] as String)->\($0["to_state"] as String)@\($0["version"] as Int)"
          },
          try Row.fetchAll(db, sql: "SELECT entity_id, version FROM sm_outbox").map {
            "\($0["entity_id"] as String)@\($0["version"] as Int)"
          }
        )
      }
    }

    if point == .afterCommit {
      // Committed: row advanced, history and outbox present; `after` never ran (P5).
      let (row, history, outbox) = try stored()
      #expect(row == "s1@1")
      #expect(history == ["s0->s1@1"])
      #expect(outbox == ["1@1"])
      #expect(!FileManager.default.fileExists(atPath: afterMark))
      // Another process delivers the message, once (P16).
      let delivery = try await StoreWorker.run(["deliver", "--db", db, "--ledger", ledger]).succeeded()
      #expect(delivery.int("delivered") == 1)
      let again = try await StoreWorker.run(["deliver", "--db", db, "--ledger", ledger]).succeeded()
      #expect(again.int("delivered") == 0)
      let lines = try String(contentsOfFile: ledger, encoding: .utf8).split(separator: "\n")
      #expect(lines.count == 1 && lines.first?.hasSuffix(" 1 1") == true, "\(lines)")
    } else {
      // Not committed: nothing of the step is in the file (P1).
      let (row, history, outbox) = try stored()
      #expect(row == "s0@0")
      #expect(history == [])
      #expect(outbox == [])
      #expect(!FileManager.default.fileExists(atPath: afterMark))
      // The dead process's write lock is gone: another process fires at once without waiting
      // for it (`--nowait` fails if the lock is held) (P3).
      let fired = try await StoreWorker.run(
        ["fire", "--db", db, "--id", "1", "--event", "advance", "--nowait", "--marker", marker]
      ).succeeded()
      #expect(fired.string("error") == nil, "\(fired.values)")
      #expect(fired.string("to") == "s1" && fired.int("version") == 1)
      #expect((fired.int("ms") ?? .max) < 1000)
      let (rowAfter, historyAfter, outboxAfter) = try stored()
      #expect(rowAfter == "s1@1")
      #expect(historyAfter == ["s0->s1@1"])
      #expect(outboxAfter == ["1@1"])
      // The marker is how a completed step shows its `after` callback ran.
      #expect(FileManager.default.fileExists(atPath: afterMark))
    }
  }
}
#endif
