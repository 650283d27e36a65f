import Foundation
import Testing

/// `statemachine store --db postgres://…?pgbouncer=true` through a real PgBouncer in transaction
/// pooling (STATEMACHINES_PGBOUNCER_URL, 4 server connections per database; .ci/run starts it):
/// the URL's setting reaches the store, the tool sends no startup parameter the pooler refuses,
/// and processes at once keep the store's rules (Many application servers, poolers).
@Suite(
  "statemachine store: through PgBouncer with pgbouncer=true",
  .enabled(
    if: StoreDatabaseKind.postgresURL != nil && PostgresTestSchema.poolerURL != nil,
    "needs STATEMACHINES_PG_URL and STATEMACHINES_PGBOUNCER_URL"),
  .timeLimit(.minutes(5)))
struct StorePoolerTests {
  @Test("init, insert, 6 processes × 20 fires on a ring, show and verify: every fire exits 0, Σ versions = history rows")
  func ring() async throws {
    let store = try StoreFixture(schema: try await PostgresTestSchema.createPooled())
    defer { store.remove() }
    #expect(store.db.contains("pgbouncer=true"))
    let ids = ["r0", "r1", "r2"]
    try await store.setUp(StoreCharts.ring, ids: ids)
    let (workers, fires) = (6, 20)
    let outputs = try await withThrowingTaskGroup(of: [StoreFixture.Output].self) { group in
      for worker in 0..<workers {
        group.addTask {
          var outputs: [StoreFixture.Output] = []
          for fire in 0..<fires {
            outputs.append(try await store.start("fire", [ids[(worker + fire) % ids.count], "next"]).wait())
          }
          return outputs
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(outputs.count == workers * fires)
    for output in outputs where output.status != 0 { Issue.record("fire exited \(output.status): \(output.stderr)") }

    let versions = try await store.int("SELECT CAST(SUM(sm_version) AS bigint) FROM sm_instances WHERE machine = 'm'")
    #expect(versions == workers * fires)
    #expect(try await store.int("SELECT COUNT(*) FROM sm_transitions WHERE machine = 'm'") == workers * fires)
    let shown = try await store.run("show", "r0", "--json")
    #expect(shown.status == 0, "\(shown.stderr)")
    let version = try shown.object()["version"] as? Int
    #expect(version == (try await store.int("SELECT sm_version FROM sm_instances WHERE entity_id = 'r0'")))
    let verified = try await store.run("verify")
    #expect(verified.status == 0, "\(verified.stderr)")
  }
}
