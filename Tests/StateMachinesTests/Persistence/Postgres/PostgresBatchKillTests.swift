// Batched fast fires across real processes (Persistence §9; "Fires batched under load" in Many
// application servers): three workers, each with 16 tasks firing a pure event on a few rows, so
// that their fires share statements; one of them killed with SIGKILL every 250 ms. A statement
// carries many fires; a kill must still leave each of them whole or absent, never twice.

#if PostgreSQL
import Foundation
import Testing

extension PostgresProcessTests {
  @Test("PostgreSQL batched fires: 3 processes × 16 tasks, one killed every 250 ms for 10 s; every fire reported applied is in the history once (P1, P2, P3)")
  func batchedFiresKilled() async throws {
    let tally = temporaryPath("pg-spin.tally")
    let tasks = 16
    _ = try await StoreWorker.run(schema.arguments("setup", ["--rows", "0", "--dials", "12"])).succeeded()
    let end = StoreWorker.wallClock(after: 10_000)
    var seed = 0
    func start() throws -> StartedWorker {
      seed += 1
      return try StoreWorker.start(
        schema.arguments(
          "spin", ["--rows", "12", "--tasks", "\(tasks)", "--seed", "\(seed)", "--until", end, "--tally", tally]))
    }
    var workers = try (0..<3).map { _ in try start() }
    var random = SystemRandomNumberGenerator()
    var kills = 0
    var finished: [WorkerRun] = []
    let deadline = Double(end)! / 1000
    while Date().timeIntervalSince1970 < deadline - 0.3 {
      try await Task.sleep(for: .milliseconds(250))
      let slot = Int.random(in: 0..<workers.count, using: &random)
      workers[slot].killProcess()
      let run = await workers[slot].finish()
      if run.wasKilled { kills += 1 } else { finished.append(run) }
      workers[slot] = try start()
    }
    for worker in workers { finished.append(await worker.finish()) }
    #expect(kills >= 20, "only \(kills) kills in 10 s")

    // The workers that were not killed: every fire succeeded, and statements were shared.
    #expect(finished.count >= 3)
    var shared = 0
    for run in finished {
      let summary = try run.succeeded()
      #expect(summary.strings("errors") == [], "\(run)")
      shared += summary.int("sharedStatements") ?? 0
    }
    #expect(shared > 0, "no statement carried more than one fire: the batched path did not run")

    // The history is a valid run of the machine on every row (P2, P3).
    let (transitions, violations) = try await schema.raceInvariants(table: "dials", initial: "d0")
    #expect(violations == [])
    let foreign = try await schema.int(
      """
      SELECT COUNT(*) FROM sm_transitions WHERE machine = 'dials' AND (event, from_state, to_state) NOT IN
        (('turn', 'd0', 'd1'), ('turn', 'd1', 'd2'), ('turn', 'd2', 'd0'))
      """)
    #expect(foreign == 0)

    // Each fire a worker was told had applied is one history row, with the version and target it
    // was told, and no two fires were told the same row (P1: nothing half written survives).
    let tallied = try ledgerLines(tally).map { $0.joined(separator: " ") }
    let history = Set(
      try await schema.strings(
        "SELECT entity_id || ' ' || version || ' ' || to_state FROM sm_transitions WHERE machine = 'dials'"))
    #expect(tallied.count > 0)
    #expect(Set(tallied).count == tallied.count, "two fires were told the same history row")
    #expect(Set(tallied).subtracting(history).isEmpty, "fires told applied that the history lacks")
    // A kill loses the tallies of the fires in flight in that process, at most one per task.
    #expect(tallied.count <= transitions && transitions <= tallied.count + kills * tasks,
      "tallied \(tallied.count), \(transitions) transitions, \(kills) kills")
  }
}
#endif
