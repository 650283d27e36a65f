// A store of an application's table records it in `sm_machine_tables` with its definition's JSON
// document (the Inspecting article), so that `statemachine inspect --db` shows the app's rows.

import Foundation
@_spi(Testing) import StateMachines
import Testing

#if SQLite
import GRDB
@_spi(Testing) import StateMachinesSQLite
#endif
#if PostgreSQL
import PostgresNIO
@_spi(Testing) import StateMachinesPostgres
#endif

@Suite("Machine table catalog (Inspecting)", .timeLimit(.minutes(1)))
struct MachineTableCatalogTests {
  /// The document the store must record: the definition's outline (its guards are code).
  static let expectedDocument = try! StoreOrder.stateMachine.jsonOutline()

  @Test func theOutlineOfADefinitionWithCodeGuardsNamesThemCode() throws {
    #expect(throws: DefinitionError.self) { try StoreOrder.stateMachine.jsonDefinition() }
    let outline = try StoreOrder.stateMachine.jsonOutline()
    #expect(outline.contains(#""guard": "code""#) || outline.contains(#""guard":"code""#), "\(outline)")
    // It loads back (guards bound by name), with the same states.
    let loaded = try StateMachineDefinition<DynamicStateMachine>(
      json: Data(outline.utf8), bind: { $0.guard("code") { _, _ in true } })
    #expect(loaded.states == StoreOrder.stateMachine.states)
  }

  #if SQLite
  @Test func aSQLiteStoreRecordsItsTableAndDefinition() async throws {
    let factory = SQLiteStoreFactory()
    let pool = factory.pool
    _ = try await factory.makeStore(StoreOrder.self, clock: .system, outbox: [])
    // The store records from the writer's queue, after the work before it: one more write waits.
    let row = try pool.write { db in
      try Row.fetchOne(db, sql: "SELECT machine, table_name, id_column, document FROM sm_machine_tables")
    }
    let recorded = try #require(row)
    #expect(recorded["machine"] as String == StoreOrder.databaseTableName)
    #expect(recorded["table_name"] as String == StoreOrder.databaseTableName)
    #expect(recorded["id_column"] as String == "id")
    #expect(recorded["document"] as String? == Self.expectedDocument)
  }

  @Test func aDatabaseWithoutTheLibraryTablesIsLeftUntouched() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sm-catalog-\(UUID().uuidString).sqlite").path
    let queue = try DatabaseQueue(path: path)
    try await queue.write { db in try db.execute(sql: "CREATE TABLE store_orders (id INTEGER PRIMARY KEY)") }
    _ = SQLiteStateMachineStore<StoreOrder>(queue)
    let tables = try await queue.write { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
    #expect(tables == ["store_orders"])
  }
  #endif

  #if PostgreSQL
  @Test(.enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"))
  func aPostgresStoreRecordsItsTableAndDefinition() async throws {
    let factory = PostgresStoreFactory()
    _ = try await factory.makeStore(StoreOrder.self, clock: .system, outbox: [])
    var rows: [PostgresRow] = []
    // Recorded from a task of the store's own: wait for it, up to 10 s.
    for _ in 0..<200 where rows.isEmpty {
      rows = try await factory.database.query("SELECT machine, table_name, id_column, document FROM sm_machine_tables")
      if rows.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
    }
    let row = try #require(rows.first)
    let (machine, table, idColumn, document) = try row.decode((String, String, String, String?).self)
    #expect(machine == StoreOrder.postgresTableName)
    #expect(table == StoreOrder.postgresTableName)
    #expect(idColumn == StoreOrder.postgresIDColumn)
    #expect(document == Self.expectedDocument)
  }
  #endif
}
