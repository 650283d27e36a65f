// Fast-path fires of many tasks across real processes on one SQLite file (Persistence §9):
// ``expectFiresSurviveKills(arguments:batches:count:strings:)``, where each fire is its own
// transaction on the file's one writer.

#if SQLite
import GRDB
import Testing

extension SQLiteProcessTests {
  @Test("fast fires: 3 processes × 16 tasks, one killed every 250 ms for 10 s; every fire reported applied is in the history once (P1, P2, P3)")
  func fastFiresKilled() async throws {
    let db = temporaryPath("spin.sqlite")
    try await expectFiresSurviveKills(
      arguments: { mode, options in [mode, "--db", db] + options }, batches: false,
      count: { sql in try value(db, sql) },
      strings: { sql in try read(db) { db in try String.fetchAll(db, sql: sql) } })
  }
}
#endif
