// Batched fast fires across real processes on PostgreSQL (Persistence §9; "Fires batched under
// load" in Many application servers): ``expectFiresSurviveKills(arguments:batches:count:strings:)``
// on the test server, where the tasks of each worker share statements.

#if PostgreSQL
import Testing

extension PostgresProcessTests {
  @Test("PostgreSQL batched fires: 3 processes × 16 tasks, one killed every 250 ms for 10 s; every fire reported applied is in the history once (P1, P2, P3)")
  func batchedFiresKilled() async throws {
    try await expectFiresSurviveKills(
      arguments: { mode, options in schema.arguments(mode, options) }, batches: true,
      count: { sql in try await schema.int("SELECT (\(sql))::bigint") }, strings: { try await schema.strings($0) })
  }
}
#endif
