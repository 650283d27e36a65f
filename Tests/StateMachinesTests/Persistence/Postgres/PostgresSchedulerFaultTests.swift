// The PostgreSQL scheduler never stops silently (Persistence §7): the server it works on is
// stopped and started again while it runs. Its passes fail meanwhile, are logged and counted, it
// backs off, and once the server is back it fires every due deadline exactly once. The server is
// a second one that .ci/run starts for this test alone (`start_fault_postgres`), so stopping it
// disturbs no other test.

#if PostgreSQL
import Foundation
import Logging
@_spi(Testing) import StateMachines
import StateMachinesPostgres
import Testing

let postgresFaultURL = ProcessInfo.processInfo.environment["STATEMACHINES_PG_FAULT_URL"]
let postgresFaultControl = ProcessInfo.processInfo.environment["STATEMACHINES_PG_FAULT_CONTROL"]

/// Runs the fault server's control script with `command` (`stop` or `start`) and waits for it.
func controlFaultServer(_ command: String) async throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: try #require(postgresFaultControl))
  process.arguments = [command]
  // The server `start` leaves running must not hold the test's output open.
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  let status: Int32 = try await withCheckedThrowingContinuation { continuation in
    process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
    do {
      try process.run()
    } catch {
      continuation.resume(throwing: error)
    }
  }
  #expect(status == 0, "the fault server's \(command) exited with \(status)")
}

/// Waits until `condition` holds, for at most `limit`; returns whether it did.
func waitUntil(_ limit: Duration, _ condition: () -> Bool) async throws -> Bool {
  let end = ContinuousClock.now + limit
  while !condition() {
    if ContinuousClock.now > end { return false }
    try await Task.sleep(for: .milliseconds(20))
  }
  return true
}

@Suite(
  "PostgreSQL scheduler under faults (Persistence §7)", .serialized,
  .enabled(
    if: postgresFaultURL != nil && postgresFaultControl != nil,
    "needs STATEMACHINES_PG_FAULT_URL and STATEMACHINES_PG_FAULT_CONTROL (.ci/run starts a server for it)"),
  .timeLimit(.minutes(3)))
struct PostgresSchedulerFaultTests {
  @Test("a PostgreSQL server stopped and started again mid-run: failed passes logged and counted, then every due deadline fired once")
  func schedulerSurvivesAServerRestart() async throws {
    let database = PostgresTestDatabase(url: postgresFaultURL)
    try await database.prepare(StoreOrder.self)
    let clock = ManualStoreClock()
    let log = RecordingLogHandler()
    let orders = PostgresStateMachineStore<StoreOrder>(
      database.client, clock: .manual(clock), logger: Logger(label: "scheduler") { _ in log })
    let ids = (0..<3).map { _ in StoreTestIDs.next() }
    for id in ids { try await orders.insert(StoreOrder(id: id)) }

    let scheduler = orders.scheduler(
      poll: .milliseconds(50), listen: false, maxBackoff: .milliseconds(500), passTimeout: .seconds(2))
    let running = Task { try await scheduler.run() }
    defer { running.cancel() }
    #expect(try await waitUntil(.seconds(20)) { scheduler.counters.snapshot.passes >= 2 })

    // The server goes away; meanwhile the deadlines fall due.
    try await controlFaultServer("stop")
    clock.advance(by: .seconds(3601))
    let failing = try await waitUntil(.seconds(45)) { scheduler.counters.snapshot.failedPasses >= 3 }
    #expect(failing, "\(scheduler.counters.snapshot)")
    let down = scheduler.counters.snapshot
    #expect(down.fired == 0 && down.consecutiveFailures >= 3 && down.lastError != nil)
    #expect(log.messages.filter { $0.hasPrefix("error: state machine scheduler pass failed") }.count >= 3)

    // The server is back: the scheduler resumes by itself.
    try await controlFaultServer("start")
    // Resumed: every deadline fired, and a pass since succeeded (a pooled connection from before
    // the restart may fail one more pass first).
    let resumed = try await waitUntil(.seconds(60)) {
      let now = scheduler.counters.snapshot
      return now.fired >= ids.count && now.consecutiveFailures == 0
    }
    #expect(resumed, "\(scheduler.counters.snapshot)")
    try await Task.sleep(for: .milliseconds(300))  // more passes: nothing fires twice (P10)
    running.cancel()
    try await running.value
    let after = scheduler.counters.snapshot
    #expect(after.fired == ids.count && after.failedPasses >= 3, "\(after)")
    for id in ids {
      #expect(try await orders.history(of: id).map(\.cause) == [.timeout])
      #expect(try await orders.storedState(of: id)?.state == "cancelled")
    }
  }
}
#endif
