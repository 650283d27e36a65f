import Foundation
import PostgresNIO
import StateMachines
import StateMachinesPostgres

/// The `store` commands on PostgreSQL (Persistence §11): the instance store on a small pool of
/// its own, and one connection for the commands' own statements (the stored charts, `show`'s
/// snapshot). Any number of these processes may run at once on one database: each step is one
/// transaction that locks its row (P1, P3). A lock is awaited for at most
/// `STATEMACHINE_BUSY_TIMEOUT` seconds (PostgreSQL's `lock_timeout`, set in each transaction, so
/// that a pooler in between refuses nothing), as on SQLite.
final class PostgresStoreBackend: StoreBackend {
  let url: PostgresURL
  let connection: PostgresConnection
  let client: PostgresClient
  private let running: Task<Void, Never>

  var label: String { url.label }

  static var logger: Logger { PostgresStepLogger.logger }

  private init(url: PostgresURL, connection: PostgresConnection, client: PostgresClient) {
    self.url = url
    self.connection = connection
    self.client = client
    running = Task { await client.run() }
  }

  /// Connects to `db`. Without `create`, a database lacking the library's tables is refused
  /// before anything is written to it.
  static func open(_ db: String, create: Bool) async throws -> PostgresStoreBackend {
    let url = try PostgresURL(db)
    let connection: PostgresConnection
    do {
      connection = try await PostgresConnection.connect(
        configuration: try url.connectionConfiguration(), id: 1, logger: logger)
    } catch {
      throw ToolError("error: \(url.label): cannot connect: \(describePostgres(error))")
    }
    if !create {
      let missing: [String]
      do {
        let rows = try await connection.query(
          "SELECT name FROM unnest(\(StoreDatabase.tables)::text[]) WITH ORDINALITY AS t(name, n) WHERE to_regclass(name) IS NULL ORDER BY n",
          logger: logger
        ).collect()
        missing = try rows.map { try $0.decode(String.self) }
      } catch {
        try? await connection.close()
        throw ToolError("error: \(url.label): \(describePostgres(error))")
      }
      guard missing.isEmpty else {
        try? await connection.close()
        throw ToolError(
          "error: \(url.label): not a statemachine store (no table \(missing.joined(separator: ", "))); "
            + "`statemachine store init` creates the tables")
      }
    }
    return PostgresStoreBackend(
      url: url, connection: connection,
      client: PostgresClient(configuration: url.clientConfiguration(), backgroundLogger: logger))
  }

  func close() async {
    try? await connection.close()
    running.cancel()
    await running.value
  }

  func instances(_ definition: StateMachineDefinition<DynamicStateMachine>, machine: String) -> any StateMachineInstanceStore {
    var options = url.storeOptions
    options.lockTimeout = Self.lockTimeout
    return PostgresInstanceStore(client, definition: definition, machine: machine, options: options)
  }

  /// Runs `body`; a database error becomes a one-line ``ToolError`` naming the database.
  private func reporting<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as ToolError {
      throw error
    } catch {
      throw ToolError("error: \(label): \(describe(error))")
    }
  }

  /// Runs `body` in one transaction on the commands' connection, rolled back when it throws or
  /// returns `commit: false`.
  private func transaction<T>(_ begin: String = "BEGIN", _ body: () async throws -> (value: T, commit: Bool)) async throws
    -> T
  {
    try await reporting {
      try await connection.query(PostgresQuery(unsafeSQL: begin), logger: Self.logger)
      do {
        try await connection.query(PostgresQuery(unsafeSQL: Self.setLockTimeout), logger: Self.logger)
        let (value, commit) = try await body()
        try await connection.query(PostgresQuery(unsafeSQL: commit ? "COMMIT" : "ROLLBACK"), logger: Self.logger)
        return value
      } catch {
        _ = try? await connection.query("ROLLBACK", logger: Self.logger)
        throw error
      }
    }
  }

  func storedChart(_ machine: String) async throws -> (format: String, document: String) {
    let rows = try await reporting {
      try await connection.query(
        "SELECT format, document FROM sm_machines WHERE machine = \(machine)", logger: Self.logger
      ).collect()
    }
    guard let row = rows.first else {
      throw ToolError("error: \(label): no machine '\(machine)' (`statemachine store init` stores its chart)")
    }
    return try await reporting { try row.decode((String, String).self) }
  }

  /// How long a step or a command's transaction waits for a lock.
  static var lockTimeout: Duration { .milliseconds(lockTimeoutMilliseconds) }

  /// `STATEMACHINE_BUSY_TIMEOUT` in milliseconds, at least 1 (0 would mean no timeout).
  private static var lockTimeoutMilliseconds: Int64 { max(1, Int64((StoreDatabase.busyTimeout * 1000).rounded())) }

  /// ``lockTimeout`` for the transaction that runs it alone.
  static var setLockTimeout: String { "SET LOCAL lock_timeout = \(lockTimeoutMilliseconds)" }

  /// The key of the advisory lock that serializes `init`s: two creating the tables at once would
  /// collide in the catalog.
  private static let initLock: Int64 = 0x5354_4D43_494E_4954  // "STMCINIT"

  func initialize(_ machine: String, chart: StoredChartFile) async throws -> Bool {
    try await transaction {
      // A transaction's lock, released at its end: a session's lock would stay with the server
      // session behind a transaction-pooling pooler.
      _ = try await connection.query("SELECT pg_advisory_xact_lock(\(Self.initLock))", logger: Self.logger).collect()
      try await PostgresStateMachineTables.create(on: client, logger: Self.logger)
      let inserted = try await connection.query(
        """
        INSERT INTO sm_machines (machine, format, document, updated_at) VALUES (\(machine), \(chart.format), \(chart.document), now())
        ON CONFLICT (machine) DO NOTHING RETURNING machine
        """, logger: Self.logger
      ).collect()
      if !inserted.isEmpty { return (true, true) }
      let existing = try await storedChart(machine)
      guard existing.format == chart.format, existing.document == chart.document else {
        throw ToolError(
          "error: \(label): machine '\(machine)' has another chart; `statemachine store migrate` replaces it")
      }
      return (false, true)
    }
  }

  func replaceChart(_ machine: String, chart: StoredChartFile, problems: ([InstanceRow]) -> [String]) async throws
    -> (rows: Int, problems: [String])
  {
    try await transaction {
      // No step commits between the check and the replacement: SHARE mode waits for the
      // writers of sm_instances and keeps new ones out until COMMIT.
      try await connection.query("LOCK TABLE sm_instances IN SHARE MODE", logger: Self.logger)
      let rows = try await connection.query(
        "SELECT entity_id, state, sm_history::text FROM sm_instances WHERE machine = \(machine) ORDER BY entity_id",
        logger: Self.logger
      ).collect().map { row in
        let (id, state, history) = try row.decode((String, String, String?).self)
        return InstanceRow(id: id, state: state, history: history)
      }
      let found = problems(rows)
      guard found.isEmpty else { return ((rows.count, found), false) }
      try await connection.query(
        """
        UPDATE sm_machines SET format = \(chart.format), document = \(chart.document), updated_at = now()
         WHERE machine = \(machine)
        """, logger: Self.logger)
      return ((rows.count, []), true)
    }
  }

  func snapshot(_ rows: StoredRows, id: String) async throws -> InstanceSnapshot? {
    let machine = rows.machine
    return try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
      let found = try await connection.query(
        Self.query(rows, "SELECT state, sm_version, sm_terminated FROM", id: id), logger: Self.logger
      ).collect()
      guard let row = found.first else { return (nil, true) }
      let (state, version, terminated) = try row.decode((String, Int64, Bool).self)
      let deadlines = try await connection.query(
        """
        SELECT state, event, due_at FROM sm_deadlines WHERE machine = \(machine) AND entity_id = \(id)
         ORDER BY due_at, id
        """, logger: Self.logger
      ).collect().map { row in
        let (state, event, due) = try row.decode((String?, String, Date).self)
        return InstanceSnapshot.Deadline(state: state, event: event, dueAt: due)
      }
      return (InstanceSnapshot(state: state, version: version, terminated: terminated, deadlines: deadlines), true)
    }
  }

  func states(_ rows: StoredRows) async throws -> [String: String] {
    try await reporting {
      let (fromWhere, key, bindsMachine) = rows.selection(quote: Self.quote)
      var binds = PostgresBindings()
      if bindsMachine { binds.append(rows.machine) }
      let sql = "SELECT \(key), state FROM \(Self.numbered(fromWhere))"
      let found = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: Self.logger).collect()
      return Dictionary(try found.map { try $0.decode((String, String).self) }, uniquingKeysWith: { first, _ in first })
    }
  }

  func chartNames() async throws -> [String] {
    try await reporting {
      try await connection.query("SELECT machine FROM sm_machines ORDER BY machine", logger: Self.logger).collect()
        .map { try $0.decode(String.self) }
    }
  }

  func machineTables() async throws -> [MachineTable] {
    try await reporting {
      let exists = try await connection.query(
        "SELECT to_regclass('sm_machine_tables') IS NOT NULL", logger: Self.logger
      ).collect()
      guard try exists.first?.decode(Bool.self) == true else { return [] }
      return try await connection.query(
        "SELECT machine, table_name, id_column, document FROM sm_machine_tables ORDER BY machine", logger: Self.logger
      ).collect().map { row in
        let (machine, table, idColumn, document) = try row.decode((String, String, String, String?).self)
        return MachineTable(machine: machine, table: table, idColumn: idColumn, document: document)
      }
    }
  }

  /// `SELECT COLUMNS FROM` the row `id`, with the binds: the machine's name for `sm_instances`,
  /// then `id`.
  private static func query(_ rows: StoredRows, _ select: String, id: String) -> PostgresQuery {
    let (fromWhere, key, bindsMachine) = rows.selection(quote: quote)
    var binds = PostgresBindings()
    if bindsMachine { binds.append(rows.machine) }
    binds.append(id)
    return PostgresQuery(unsafeSQL: "\(select) \(numbered(fromWhere)) AND \(key) = $\(binds.count)", binds: binds)
  }

  /// A PostgreSQL identifier, quoted.
  private static func quote(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `?` as PostgreSQL's `$1` (a selection has at most one).
  private static func numbered(_ sql: String) -> String {
    sql.replacingOccurrences(of: "?", with: "$1")
  }

  func describe(_ error: any Error) -> String {
    if let error = error as? StateMachineStoreError {
      switch error {
      case .database(let failure as PostgresStoreFailure):
        return "database error: \(failure.underlying.map(Self.describePostgres) ?? oneLine(failure.description))"
      case .database(let underlying): return "database error: \(Self.describePostgres(underlying))"
      case .locked: return "the row is locked by another writer (lock_timeout)"
      default: return oneLine(error.description)
      }
    }
    if let error = error as? ToolError { return error.description }
    return Self.describePostgres(error)
  }

  /// One line saying what a postgres-nio error is: the server's message and SQLSTATE, or what
  /// broke the connection.
  static func describePostgres(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return oneLine("\(error)") }
    if let info = error.serverInfo, let message = info[.message] {
      return "PostgreSQL error \(info[.sqlState] ?? "?"): \(oneLine(message))"
    }
    if let underlying = error.underlying { return "\(error.code): \(oneLine("\(underlying)"))" }
    return "\(error.code)"
  }
}
