import Foundation
import Testing

/// `statemachine store --db postgres://…` where there is no store to reach: one line on stderr,
/// exit 1, nothing written (Persistence §11).
@Suite("statemachine store: PostgreSQL URLs that reach no store", .timeLimit(.minutes(1)))
struct StorePostgresTests {
  let bad = StoreBadInputTests()

  @Test("a server that does not answer, a bad URL: exit 1, one line naming the URL without its password")
  func unreachable() async throws {
    let store = try await StoreFixture()
    defer { store.remove() }
    let chart = try store.file("c.json", StoreCharts.device)
    let refused = try await store.run("init", chart, db: "postgres://app:secret@127.0.0.1:1/orders")
    bad.expectError(refused, "postgres://app@127.0.0.1:1/orders", "cannot connect")
    #expect(!refused.stderr.contains("secret"))
    for arguments in [["fire", "a", "power"], ["show", "a"], ["list"], ["run-due", "--once"], ["verify"]] {
      bad.expectError(
        try await store.start(arguments[0], Array(arguments.dropFirst()), db: "postgresql://127.0.0.1:1/orders").wait(),
        "cannot connect")
    }
    bad.expectError(try await store.run("list", db: "postgres://127.0.0.1:1/orders?sslmode=sometimes"), "sslmode")
    bad.expectError(try await store.run("list", db: "postgres://127.0.0.1:1/orders?pool=8"), "'pool'")
  }

  @Test(
    "a database that does not exist, a schema that does not exist: exit 1, one line, nothing created",
    .enabled(if: StoreDatabaseKind.postgresURL != nil, "needs STATEMACHINES_PG_URL"))
  func missingDatabase() async throws {
    let store = try await StoreFixture(.postgres)
    defer { store.remove() }
    let base = try #require(StoreDatabaseKind.postgresURL)
    var components = try #require(URLComponents(string: base))
    components.path = "/no_such_database_here"
    let missing = try #require(components.string)
    let chart = try store.file("c.json", StoreCharts.device)
    bad.expectError(try await store.run("init", chart, db: missing), "no_such_database_here", "3D000")
    // A search_path naming no schema: init has nowhere to create the tables.
    let nowhere = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3Dno_such_schema"
    bad.expectError(try await store.run("init", chart, db: nowhere), "3F000")
    bad.expectError(try await store.run("show", "a", db: nowhere), "not a statemachine store")
    #expect(try await store.isEmpty())
  }
}
