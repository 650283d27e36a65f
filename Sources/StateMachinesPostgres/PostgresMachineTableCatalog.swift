// The catalog of machine tables (Persistence §5): each store of an
// application's table records, when it is created, the table, its id column and its definition's
// JSON document in `sm_machine_tables`, so that `statemachine inspect --db` shows the app's own
// rows without the app's code.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import StateMachines

enum PostgresMachineTableCatalog {
  /// Records `table` in the catalog from a task of its own, once the client runs: best effort. A
  /// database without the library's tables, or a failure, only means a tool cannot list the
  /// table (logged at debug level); the store works the same.
  static func record<Model>(
    _ table: PostgresMachineTable, definition: StateMachineDefinition<Model>, client: PostgresClient, logger: Logger
  ) {
    let document = try? definition.jsonOutline()
    let (machine, name, idColumn) = (table.machine, table.name, table.idColumn)
    Task {
      do {
        try await client.withConnection { connection in
          _ = try await connection.query(
            """
            INSERT INTO sm_machine_tables (machine, table_name, id_column, document) \
            SELECT \(machine), \(name), \(idColumn), \(document) WHERE to_regclass('sm_machine_tables') IS NOT NULL \
            ON CONFLICT (machine) DO UPDATE SET table_name = excluded.table_name, id_column = excluded.id_column, \
            document = excluded.document, updated_at = now()
            """, logger: logger
          ).collect()
        }
      } catch {
        logger.debug("sm_machine_tables: could not record \(name): \(String(reflecting: error))")
      }
    }
  }
}
#endif
