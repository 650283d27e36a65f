// Restart with due timeouts (Persistence §9): deadlines written by a process that was killed
// fire exactly once when scheduler processes start later with the clock moved on; deadlines not
// yet due keep their due_at.

#if SQLite
import Foundation
import GRDB
import Testing

extension SQLiteProcessTests {
  /// The manual clock's time of the first phase: 2026-01-01 00:00:00 UTC, in milliseconds.
  static let phaseOne = 1_767_225_600_000

  @Test("restart: after a kill, 4 schedulers started at once fire each due deadline exactly once (P9, P10, P15)")
  func restartWithDueTimeouts() async throws {
    let db = temporaryPath("restart.sqlite")
    let t = Self.phaseOne
    // Phase 1: 1,000 reserved (release after 2 s), 1,000 awaiting payment (expire after 1 h),
    // 100 reserved confirmed; then the process dies by SIGKILL.
    let phase1 = try await StoreWorker.run([
      "book", "--db", db, "--now", "\(t)", "--reserved", "1000", "--awaiting", "1000", "--confirm", "100", "--kill",
    ])
    #expect(phase1.wasKilled, "\(phase1)")
    let booked = try phase1.summary()
    #expect(booked.int("inserted") == 2000 && booked.int("confirmed") == 100)
    let expiries = { () throws -> [String] in
      try self.read(db) { db in
        try Row.fetchAll(
          db, sql: "SELECT entity_id, due_at FROM sm_deadlines WHERE machine = 'bookings' AND event = 'expire' ORDER BY id"
        ).map { "\($0["entity_id"] as String)@\($0["due_at"] as Int)" }
      }
    }
    let expiriesBefore = try expiries()
    #expect(expiriesBefore.count == 1000)
    #expect(try value(db, "SELECT COUNT(*) FROM sm_deadlines WHERE event = 'expire' AND due_at != ?", [t + 3_600_000]) == 0)
    #expect(try value(db, "SELECT COUNT(*) FROM sm_deadlines WHERE event = 'release' AND due_at = ?", [t + 2000]) == 900)

    // Phase 2: no process runs while the clock moves 3 s; four schedulers start at once.
    let start = StoreWorker.wallClock(after: 500)
    let runs = try await StoreWorker.runAll(
      (0..<4).map { _ in ["schedule", "--db", db, "--now", "\(t + 3000)", "--start-at", start] })
    let fired = try runs.map { try $0.succeeded().int("fired") ?? -1 }
    #expect(fired.reduce(0, +) == 900, "fired per scheduler: \(fired)")

    try read(db) { db in
      let states = try Dictionary(
        uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM bookings GROUP BY state").map {
          ($0["state"] as String, $0["n"] as Int)
        })
      #expect(states == ["released": 900, "confirmed": 100, "awaitingPayment": 1000])
      // 900 timeout history rows, one per released row, each fired at least 1 s late.
      let timeouts = try Row.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) AS n, COUNT(DISTINCT entity_id) AS rows, MIN(at - due_at) AS lateness
          FROM sm_transitions WHERE machine = 'bookings' AND cause = 'timeout'
          """)
      #expect(timeouts?["n"] as Int? == 900)
      #expect(timeouts?["rows"] as Int? == 900)
      #expect(timeouts?["lateness"] as Int? == 1000)
      let releasedWithOne = try Int.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) FROM bookings b WHERE b.state = 'released' AND b.sm_version = 1 AND (SELECT COUNT(*)
            FROM sm_transitions t WHERE t.machine = 'bookings' AND t.entity_id = CAST(b.id AS TEXT)
            AND t.cause = 'timeout' AND t.event = 'release' AND t.from_state = 'reserved') = 1
          """)
      #expect(releasedWithOne == 900)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sm_deadlines WHERE event = 'release'") == 0)
    }
    // The deadlines not due are untouched.
    #expect(try expiries() == expiriesBefore)
  }

  @Test("restart: 2 processes polling one due deadline, 50 times, fire it once each time (P10)")
  func twoPollersFireOnce() async throws {
    let db = temporaryPath("poll.sqlite")
    let t = Self.phaseOne
    // Booking i is reserved at t + (i - 1) × 10 s, so its release is due 2 s later: round i - 1
    // (clock at t + (i - 1) × 10 s + 3 s) finds exactly that one due.
    _ = try await StoreWorker.run([
      "book", "--db", db, "--now", "\(t)", "--reserved", "50", "--awaiting", "0", "--spacing", "10000",
    ]).succeeded()
    let start = StoreWorker.wallClock(after: 500)
    let runs = try await StoreWorker.runAll(
      (0..<2).map { _ in
        [
          "schedule", "--db", db, "--now", "\(t + 3000)", "--rounds", "50", "--spacing", "10000", "--period", "60",
          "--start-at", start,
        ]
      })
    let rounds = try runs.map { try $0.succeeded().ints("rounds") }
    #expect(rounds.allSatisfy { $0.count == 50 })
    for round in 0..<50 {
      #expect(rounds.map { $0.count > round ? $0[round] : 0 }.reduce(0, +) == 1, "round \(round): \(rounds)")
    }
    try read(db) { db in
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bookings WHERE state = 'released' AND sm_version = 1") == 50)
      let timeouts = try Row.fetchOne(
        db, sql: "SELECT COUNT(*) AS n, COUNT(DISTINCT entity_id) AS rows FROM sm_transitions WHERE cause = 'timeout'")
      #expect(timeouts?["n"] as Int? == 50)
      #expect(timeouts?["rows"] as Int? == 50)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sm_deadlines") == 0)
    }
  }
}
#endif
