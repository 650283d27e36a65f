import Foundation
import Testing

/// Several `statemachine store` processes at once on one database, a SQLite file or PostgreSQL
/// (Persistence §11: "any number of these processes may run at once on one database; every
/// rule above holds for them").
// Each test starts up to 200 processes of the debug tool; on a loaded 2-core machine that took
// close to 5 minutes once, so the limit (a guard against a hang) is 10.
@Suite("statemachine store: processes at once on one file", .timeLimit(.minutes(10)))
struct StoreConcurrencyTests {
  @Test(
    "4 workers × 50 fires on a ring: Σ versions = history rows, versions without gaps, from = predecessor's to (P1–P3)",
    arguments: StoreDatabaseKind.enabled)
  func ring(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    let ids = ["r0", "r1", "r2"]
    try await store.setUp(StoreCharts.ring, ids: ids)
    let (workers, fires) = (4, 50)
    let statuses = try await withThrowingTaskGroup(of: [Int32].self) { group in
      for worker in 0..<workers {
        group.addTask {
          var statuses: [Int32] = []
          for fire in 0..<fires {
            let output = try await store.start("fire", [ids[(worker + fire) % ids.count], "next"]).wait()
            statuses.append(output.status)
          }
          return statuses
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(statuses.count == workers * fires)
    #expect(statuses.allSatisfy { $0 == 0 }, "statuses: \(Set(statuses))")

    let versions = try await store.int("SELECT CAST(SUM(sm_version) AS bigint) FROM sm_instances WHERE machine = 'm'")
    let rows = try await store.rows(
      "SELECT entity_id, version, from_state, to_state FROM sm_transitions WHERE machine = 'm' ORDER BY entity_id, version")
    #expect(versions == workers * fires)
    #expect(rows.count == workers * fires)
    for id in ids {
      let history = rows.filter { $0["entity_id"] as? String == id }
      try #require(!history.isEmpty)
      #expect(history.map { $0["version"] as? Int } == Array(1...history.count))
      var state = "s0"
      for row in history {
        let from = row["from_state"] as? String
        #expect(from == state, "\(id) v\(row["version"] ?? ""): from \(from ?? "-"), expected \(state)")
        state = row["to_state"] as? String ?? ""
      }
      let stored = try await store.strings("SELECT state FROM sm_instances WHERE entity_id = '\(id)'")
      #expect(stored == [state])
    }
  }

  @Test(
    "4 processes fire with one request id at once: one step happens, all exit 0, the others replay it (P6)",
    arguments: StoreDatabaseKind.enabled)
  func oneRequestID(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind)
    defer { store.remove() }
    try await store.setUp(StoreCharts.ring, ids: ["a"])
    let request = UUID().uuidString
    let started = try (0..<4).map { _ in try store.start("fire", ["a", "next", "--request-id", request, "--json"]) }
    var outputs: [StoreFixture.Output] = []
    for process in started { outputs.append(try await process.wait()) }
    #expect(outputs.map(\.status) == [0, 0, 0, 0], "\(outputs.map(\.stderr))")
    let objects = try outputs.map { try $0.object() }
    #expect(objects.allSatisfy { $0["state"] as? String == "s1" && $0["version"] as? Int == 1 })
    #expect(objects.filter { $0["replayed"] as? Bool == true }.count == 3)
    #expect(objects.filter { $0["replayed"] == nil }.count == 1)
    // A UUID column on PostgreSQL, text on SQLite: compared as text, in lower case.
    let rows = try await store.int(
      "SELECT COUNT(*) FROM sm_transitions WHERE lower(CAST(request_id AS text)) = '\(request.lowercased())'")
    #expect(rows == 1)
    #expect(try await store.run("show", "a", "--json").object()["version"] as? Int == 1)
  }

  @Test(
    "4 run-due --once at once: every due deadline fires exactly once (P9, P10)",
    arguments: StoreDatabaseKind.enabled)
  func schedulers(kind: StoreDatabaseKind) async throws {
    let store = try await StoreFixture(kind, machine: "timer")
    defer { store.remove() }
    let ids = (0..<40).map { "t\($0)" }
    try await store.setUp(StoreCharts.timer, ids: ids)
    try await Task.sleep(for: .milliseconds(300))
    let started = try (0..<4).map { _ in try store.start("run-due", ["--once"]) }
    var outputs: [StoreFixture.Output] = []
    for process in started { outputs.append(try await process.wait()) }
    #expect(outputs.map(\.status) == [0, 0, 0, 0], "\(outputs.map(\.stderr))")
    #expect(outputs.compactMap { Int($0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }.reduce(0, +) == 40)
    let timeouts = try await store.int("SELECT COUNT(*) FROM sm_transitions WHERE cause = 'timeout'")
    let done = try await store.int("SELECT COUNT(*) FROM sm_instances WHERE state = 'done' AND sm_version = 1")
    let deadlines = try await store.int("SELECT COUNT(*) FROM sm_deadlines")
    #expect(timeouts == 40)
    #expect(done == 40)
    #expect(deadlines == 0)
  }
}
