// The library's tables on SQLite (Persistence §5): history, deadlines, outbox, the store-owned
// instance table of run-time definitions and the charts the command-line tool keeps. Times are
// INTEGER milliseconds since the epoch (UTC), JSON is TEXT.

#if SQLite
import GRDB
import StateMachines

/// The library's tables and the machine columns of an application's own table.
public enum StateMachineTables {
  /// The statements that create the library's tables and indexes when they are missing.
  static let statements = [
    """
    CREATE TABLE IF NOT EXISTS sm_transitions (id INTEGER PRIMARY KEY AUTOINCREMENT, machine TEXT NOT NULL,
      entity_id TEXT NOT NULL, version INTEGER NOT NULL, event TEXT NOT NULL, from_state TEXT NOT NULL,
      to_state TEXT NOT NULL, cause TEXT NOT NULL DEFAULT 'event', payload TEXT, request_id TEXT, due_at INTEGER,
      process TEXT, at INTEGER NOT NULL, UNIQUE (machine, entity_id, version))
    """,
    """
    CREATE INDEX IF NOT EXISTS sm_transitions_request ON sm_transitions (machine, request_id)
      WHERE request_id IS NOT NULL
    """,
    """
    CREATE TABLE IF NOT EXISTS sm_deadlines (id INTEGER PRIMARY KEY AUTOINCREMENT, machine TEXT NOT NULL,
      entity_id TEXT NOT NULL, state TEXT, event TEXT NOT NULL, armed_version INTEGER NOT NULL,
      due_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT,
      parked INTEGER NOT NULL DEFAULT 0)
    """,
    "CREATE INDEX IF NOT EXISTS sm_deadlines_due ON sm_deadlines (machine, parked, due_at)",
    "CREATE INDEX IF NOT EXISTS sm_deadlines_entity ON sm_deadlines (machine, entity_id)",
    """
    CREATE TABLE IF NOT EXISTS sm_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, machine TEXT NOT NULL,
      entity_id TEXT NOT NULL, version INTEGER NOT NULL, topic TEXT NOT NULL, payload TEXT NOT NULL,
      available_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT,
      parked INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL)
    """,
    "CREATE INDEX IF NOT EXISTS sm_outbox_available ON sm_outbox (machine, parked, available_at)",
    """
    CREATE TABLE IF NOT EXISTS sm_instances (machine TEXT NOT NULL, entity_id TEXT NOT NULL, state TEXT NOT NULL,
      sm_version INTEGER NOT NULL DEFAULT 0, sm_terminated INTEGER NOT NULL DEFAULT 0, sm_history TEXT,
      PRIMARY KEY (machine, entity_id))
    """,
    "CREATE INDEX IF NOT EXISTS sm_instances_state ON sm_instances (machine, state)",
    """
    CREATE TABLE IF NOT EXISTS sm_machines (machine TEXT PRIMARY KEY, format TEXT NOT NULL, document TEXT NOT NULL,
      updated_at INTEGER NOT NULL)
    """,
  ] + machineTablesStatements

  /// The catalog of the applications' machine tables (`SQLiteMachineTableCatalog`): which table
  /// holds a machine's rows and its definition, so that a tool shows them without the app's code.
  static let machineTablesStatements = [
    """
    CREATE TABLE IF NOT EXISTS sm_machine_tables (machine TEXT PRIMARY KEY, table_name TEXT NOT NULL,
      id_column TEXT NOT NULL, document TEXT, updated_at INTEGER NOT NULL)
    """
  ]

  /// Creates the library's tables and indexes that are missing: `sm_transitions`, `sm_deadlines`,
  /// `sm_outbox`, `sm_instances` and `sm_machines`.
  public static func create(in db: Database) throws {
    for statement in statements { try db.execute(sql: statement) }
  }
}

extension DatabaseMigrator {
  /// Registers a migration named `stateMachineTables` that creates the library's tables.
  public mutating func registerStateMachineTables() {
    registerMigration("stateMachineTables") { db in try StateMachineTables.create(in: db) }
    // Added later: a database migrated before it gets the catalog of machine tables too.
    registerMigration("stateMachineTables.machineTables") { db in
      for statement in StateMachineTables.machineTablesStatements { try db.execute(sql: statement) }
    }
  }
}

extension TableDefinition {
  /// Adds the machine columns a ``SQLiteStateMachineStore`` owns to an application's table:
  /// `state`, `sm_version`, `sm_terminated` and `sm_history`, and an index on `state` (P14).
  public func stateMachineColumns() {
    column("state", .text).notNull().defaults(to: "").indexed()
    column("sm_version", .integer).notNull().defaults(to: 0)
    column("sm_terminated", .boolean).notNull().defaults(to: false)
    column("sm_history", .text)
  }
}
#endif
