// The library's tables on PostgreSQL 15 (Persistence §5): history, deadlines, outbox, the
// store-owned instance table of run-time definitions and the charts the command-line tool keeps.
// Payloads are `json`, which keeps a message's text as it was made; the machine's history
// records are `jsonb`.

#if PostgreSQL
import Logging
import PostgresNIO

/// The library's tables, and the machine columns of an application's own table.
public enum PostgresStateMachineTables {
  /// The statements that create the library's tables and indexes when they are missing.
  static let statements = [
    """
    CREATE TABLE IF NOT EXISTS sm_transitions (id bigserial PRIMARY KEY, machine text NOT NULL,
      entity_id text NOT NULL, version bigint NOT NULL, event text NOT NULL, from_state text NOT NULL,
      to_state text NOT NULL, cause text NOT NULL DEFAULT 'event', payload json, request_id uuid,
      due_at timestamptz, process text, at timestamptz NOT NULL DEFAULT clock_timestamp(),
      UNIQUE (machine, entity_id, version))
    """,
    // Every history row of a step carries the step's request id (P6), hence not unique.
    """
    CREATE INDEX IF NOT EXISTS sm_transitions_request ON sm_transitions (machine, request_id)
      WHERE request_id IS NOT NULL
    """,
    // No unique key: inserting a deadline never waits (Persistence §5).
    """
    CREATE TABLE IF NOT EXISTS sm_deadlines (id bigserial PRIMARY KEY, machine text NOT NULL,
      entity_id text NOT NULL, state text, event text NOT NULL, armed_version bigint NOT NULL,
      due_at timestamptz NOT NULL, attempts int NOT NULL DEFAULT 0, last_error text,
      parked boolean NOT NULL DEFAULT false)
    """,
    "CREATE INDEX IF NOT EXISTS sm_deadlines_due ON sm_deadlines (machine, due_at) WHERE NOT parked",
    "CREATE INDEX IF NOT EXISTS sm_deadlines_entity ON sm_deadlines (machine, entity_id)",
    """
    CREATE TABLE IF NOT EXISTS sm_outbox (id bigserial PRIMARY KEY, machine text NOT NULL,
      entity_id text NOT NULL, version bigint NOT NULL, topic text NOT NULL, payload json NOT NULL,
      available_at timestamptz NOT NULL DEFAULT now(), attempts int NOT NULL DEFAULT 0, last_error text,
      parked boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now())
    """,
    "CREATE INDEX IF NOT EXISTS sm_outbox_available ON sm_outbox (machine, available_at) WHERE NOT parked",
    """
    CREATE TABLE IF NOT EXISTS sm_instances (machine text NOT NULL, entity_id text NOT NULL, state text NOT NULL,
      sm_version bigint NOT NULL DEFAULT 0, sm_terminated boolean NOT NULL DEFAULT false, sm_history jsonb,
      PRIMARY KEY (machine, entity_id))
    """,
    "CREATE INDEX IF NOT EXISTS sm_instances_state ON sm_instances (machine, state text_pattern_ops)",
    """
    CREATE TABLE IF NOT EXISTS sm_machines (machine text PRIMARY KEY, format text NOT NULL, document text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now())
    """,
    // The catalog of the applications' machine tables (`PostgresMachineTableCatalog`): which
    // table holds a machine's rows and its definition, so that a tool shows them without the app.
    """
    CREATE TABLE IF NOT EXISTS sm_machine_tables (machine text PRIMARY KEY, table_name text NOT NULL,
      id_column text NOT NULL, document text, updated_at timestamptz NOT NULL DEFAULT now())
    """,
  ]

  /// Creates the library's tables and indexes that are missing (`sm_transitions`,
  /// `sm_deadlines`, `sm_outbox`, `sm_instances`, `sm_machines`, `sm_machine_tables`), in the first schema of the
  /// connection's `search_path`. Idempotent.
  public static func create(on client: PostgresClient, logger: Logger = PostgresStepLogger.logger) async throws {
    try await client.withConnection { connection in
      for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
    }
  }

  /// The statements that add the machine columns a ``PostgresStateMachineStore`` owns to an
  /// application's table, and an index on `state` (P14), when they are missing: `state`,
  /// `sm_version`, `sm_terminated` and `sm_history`.
  public static func machineColumns(of table: String) -> [String] {
    let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let index = "\"" + (table + "_state").replacingOccurrences(of: "\"", with: "\"\"") + "\""
    return [
      """
      ALTER TABLE \(quoted) ADD COLUMN IF NOT EXISTS state text NOT NULL DEFAULT '',
        ADD COLUMN IF NOT EXISTS sm_version bigint NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS sm_terminated boolean NOT NULL DEFAULT false,
        ADD COLUMN IF NOT EXISTS sm_history jsonb
      """,
      "CREATE INDEX IF NOT EXISTS \(index) ON \(quoted) (state text_pattern_ops)",
    ]
  }

  /// Adds the machine columns to an application's table (``machineColumns(of:)``). Idempotent.
  public static func addMachineColumns(to table: String, on client: PostgresClient, logger: Logger = PostgresStepLogger.logger)
    async throws
  {
    try await client.withConnection { connection in
      for statement in machineColumns(of: table) {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
      }
    }
  }
}

/// The logger the store uses when it is given none: it drops everything.
public enum PostgresStepLogger {
  /// A logger that drops every message.
  public static let logger = Logger(label: "StateMachinesPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
}
#endif
