// The soak of Persistence §9 on PostgreSQL: racing workers and dispatchers, one of them killed
// with SIGKILL every 200 ms for 20 s and started again. Whatever the kills cut, the race
// invariants hold and every outbox message is delivered at least once.

#if PostgreSQL
import Foundation
import Testing

extension PostgresProcessTests {
  /// What the soak runs: 4 racing workers (2 by id, 2 on stale objects) and 2 dispatchers.
  static let soakSlots = ["id", "stale", "id", "stale", "deliver", "deliver"]

  @Test("PostgreSQL soak: a random worker killed every 200 ms for 20 s; the invariants hold, every message delivered (P1, P2, P16)")
  func soak() async throws {
    let ledger = temporaryPath("pg-soak.ledger")
    let tally = temporaryPath("pg-soak.tally")
    _ = try await StoreWorker.run(schema.arguments("setup", ["--rows", "20", "--disabled", "1"])).succeeded()
    let end = StoreWorker.wallClock(after: 20_000)
    // A short lease, so that what a killed dispatcher claimed is due again soon (Persistence §8).
    var seed = 0
    func start(_ slot: String) throws -> StartedWorker {
      seed += 1
      if slot == "deliver" {
        return try StoreWorker.start(schema.arguments("deliver", ["--ledger", ledger, "--until", end, "--lease", "500"]))
      }
      return try StoreWorker.start(
        schema.arguments(
          "race", ["--rows", "20", "--mode", slot, "--seed", "\(seed)", "--until", end, "--tally", tally, "--lease", "500"]))
    }
    let (finished, killedSlots) = try await killRandomWorkers(
      try Self.soakSlots.map(start), every: .milliseconds(200), until: end, restart: { try start(Self.soakSlots[$0]) })
    let kills = killedSlots.count
    let raceKills = killedSlots.filter { Self.soakSlots[$0] != "deliver" }.count
    #expect(kills >= 50, "only \(kills) kills in 20 s")
    // The workers that were not killed ended well: no error but rejections and conflicts.
    for run in finished {
      let summary = try run.succeeded()
      #expect(summary.strings("errors") == [], "\(run)")
    }

    // The race invariants (P2, P3, P4). Each success was tallied after its commit, so a kill
    // between the two loses at most one tally per killed racing worker.
    let (transitions, violations) = try await schema.raceInvariants()
    #expect(violations == [])
    let tallied = try ledgerLines(tally).count
    #expect(tallied > 0)
    #expect(tallied <= transitions && transitions <= tallied + raceKills, "tallied \(tallied), \(raceKills) kills")

    // The leases of killed dispatchers expire; one more dispatcher then drains the rest.
    try await Task.sleep(for: .milliseconds(700))
    _ = try await StoreWorker.run(schema.arguments("deliver", ["--ledger", ledger])).succeeded()
    #expect(try await schema.int("SELECT COUNT(*) FROM sm_outbox") == 0)
    // Every transition's message was delivered at least once (P16).
    let lines = try ledgerLines(ledger)
    #expect(lines.count >= transitions)
    #expect(Set(lines.map { "\($0[1]) \($0[2])" }) == (try await schema.transitionKeys()))
  }
}
#endif
