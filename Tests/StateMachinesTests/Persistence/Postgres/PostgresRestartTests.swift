// Restart with due timeouts on PostgreSQL (Persistence §9): deadlines written by a process
// that was killed fire exactly once when scheduler processes start after a downtime; deadlines not
// yet due keep their due_at. Deadlines are dated by the database's `now()` (P15), so the downtime
// is real: the test waits until the server's clock passes the due deadlines.

#if PostgreSQL
import Foundation
import Testing

extension PostgresProcessTests {
  @Test("PostgreSQL restart: 4 schedulers started at once after downtime fire each due deadline exactly once (P9, P10, P15)")
  func restartWithDueTimeouts() async throws {
    try await Self.restart(on: schema)
  }

  /// Deadlines written by a killed process, then four schedulers, on `schema`.
  static func restart(on schema: PostgresWorkerSchema) async throws {
    // Phase 1, on the database's clock: 1,000 reserved (release after 2 s), 1,000 awaiting payment
    // (expire after 1 h), 100 reserved confirmed; then the process dies by SIGKILL.
    let phase1 = try await StoreWorker.run(
      schema.arguments(
        "book", ["--database-clock", "--reserved", "1000", "--awaiting", "1000", "--confirm", "100", "--kill"]))
    #expect(phase1.wasKilled, "\(phase1)")
    let booked = try phase1.summary()
    #expect(booked.int("inserted") == 2000 && booked.int("confirmed") == 100)
    let expiries = {
      try await schema.strings(
        "SELECT entity_id || '@' || due_at::text FROM sm_deadlines WHERE machine = 'bookings' AND event = 'expire' ORDER BY id")
    }
    let expiriesBefore = try await expiries()
    #expect(expiriesBefore.count == 1000)
    #expect(
      try await schema.int(
        "SELECT COUNT(*) FROM sm_deadlines WHERE event = 'expire' AND due_at < now() + interval '3000 seconds'") == 0)
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_deadlines WHERE event = 'release'") == 900)

    // Downtime: no process runs until every release is due by the server's clock, and 1 s more.
    let wait = try await schema.int(
      "SELECT CEIL(1000 * EXTRACT(EPOCH FROM MAX(due_at) - now()))::bigint FROM sm_deadlines WHERE event = 'release'")
    try await Task.sleep(for: .milliseconds(max(0, wait ?? 0) + 1000))
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_deadlines WHERE event = 'release' AND due_at > now()") == 0)

    // Phase 2: four schedulers start at once.
    let start = StoreWorker.wallClock(after: 1000)
    let runs = try await StoreWorker.runAll(
      (0..<4).map { _ in schema.arguments("schedule", ["--database-clock", "--start-at", start]) })
    let fired = try runs.map { try $0.succeeded().int("fired") ?? -1 }
    #expect(fired.reduce(0, +) == 900, "fired per scheduler: \(fired)")

    let states = Dictionary(
      uniqueKeysWithValues: try await schema.rows("SELECT state, COUNT(*) FROM bookings GROUP BY state").map {
        try $0.decode((String, Int).self)
      })
    #expect(states == ["released": 900, "confirmed": 100, "awaitingPayment": 1000])
    // 900 timeout history rows, one per released row, none fired before it was due.
    #expect(
      try await schema.int("SELECT COUNT(*) FROM sm_transitions WHERE machine = 'bookings' AND cause = 'timeout'") == 900)
    #expect(
      try await schema.int(
        "SELECT COUNT(DISTINCT entity_id) FROM sm_transitions WHERE machine = 'bookings' AND cause = 'timeout'") == 900)
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_transitions WHERE cause = 'timeout' AND at < due_at + interval '1 second'") == 0)
    let releasedWithOne = try await schema.int(
      """
      SELECT COUNT(*) FROM bookings b WHERE b.state = 'released' AND b.sm_version = 1 AND (SELECT COUNT(*)
        FROM sm_transitions t WHERE t.machine = 'bookings' AND t.entity_id = CAST(b.id AS text)
        AND t.cause = 'timeout' AND t.event = 'release' AND t.from_state = 'reserved') = 1
      """)
    #expect(releasedWithOne == 900)
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_deadlines WHERE event = 'release'") == 0)
    // The deadlines not due are untouched.
    #expect(try await expiries() == expiriesBefore)
  }

  @Test("PostgreSQL restart: 2 processes polling one due deadline, 50 times, fire it once each time (P10)")
  func twoPollersFireOnce() async throws {
    try await Self.twoPollers(on: schema)
  }

  /// Two pollers, one due deadline per round, on `schema`.
  static func twoPollers(on schema: PostgresWorkerSchema) async throws {
    // One deadline due per round needs a clock the test moves: a manual one, bound into the
    // scheduler's claim instead of the server's now() (P15). Booking i is reserved at
    // t + (i - 1) × 10 s, so its release is due 2 s later: round i - 1 (clock at
    // t + (i - 1) × 10 s + 3 s) finds exactly that one due.
    let t = 1_767_225_600_000
    _ = try await StoreWorker.run(
      schema.arguments("book", ["--now", "\(t)", "--reserved", "50", "--awaiting", "0", "--spacing", "10000"])
    ).succeeded()
    let start = StoreWorker.wallClock(after: 1000)
    let runs = try await StoreWorker.runAll(
      (0..<2).map { _ in
        schema.arguments(
          "schedule",
          ["--now", "\(t + 3000)", "--rounds", "50", "--spacing", "10000", "--period", "100", "--start-at", start])
      })
    let rounds = try runs.map { try $0.succeeded().ints("rounds") }
    #expect(rounds.allSatisfy { $0.count == 50 })
    for round in 0..<50 {
      #expect(rounds.map { $0.count > round ? $0[round] : 0 }.reduce(0, +) == 1, "round \(round): \(rounds)")
    }
    #expect(try await schema.int("SELECT COUNT(*) FROM bookings WHERE state = 'released' AND sm_version = 1") == 50)
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_transitions WHERE cause = 'timeout'") == 50)
    #expect(try await schema.int("SELECT COUNT(DISTINCT entity_id) FROM sm_transitions WHERE cause = 'timeout'") == 50)
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_deadlines") == 0)
  }
}
#endif
