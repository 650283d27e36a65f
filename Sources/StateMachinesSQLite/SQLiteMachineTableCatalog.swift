// The catalog of machine tables (Persistence §5): each store of an
// application's table records, when it is created, the table, its id column and its definition's
// JSON document in `sm_machine_tables`, so that `statemachine inspect --db` shows the app's own
// rows without the app's code.

#if SQLite
import Foundation
import GRDB
import StateMachines

enum SQLiteMachineTableCatalog {
  /// Records `table` in the catalog, on the writer's queue, after the current work: best effort.
  /// A database whose library tables are not created yet (no catalog table) is left untouched,
  /// and a failure only means a tool cannot list the table; the store works the same.
  static func record<Model>(_ table: SQLiteMachineTable, definition: StateMachineDefinition<Model>, in writer: any DatabaseWriter) {
    let document = try? definition.jsonOutline()
    let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
    // Asynchronous: a store created inside one of the writer's own accesses must not re-enter it.
    writer.asyncWriteWithoutTransaction { db in
      guard (try? db.tableExists("sm_machine_tables")) == true else { return }
      try? db.execute(
        sql: """
          INSERT INTO sm_machine_tables (machine, table_name, id_column, document, updated_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (machine) DO UPDATE SET table_name = excluded.table_name, id_column = excluded.id_column,
            document = excluded.document, updated_at = excluded.updated_at
          """,
        arguments: [table.machine, table.name, table.idColumn, document, now])
    }
  }
}
#endif
