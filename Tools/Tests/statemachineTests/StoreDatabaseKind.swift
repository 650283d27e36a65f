import Foundation
import GRDB
import PostgresNIO
import Testing

/// The databases the `store` command tests run on: a SQLite file always, and PostgreSQL when
/// STATEMACHINES_PG_URL names a server (.ci/run starts one). Each test case gets a fresh file or
/// a fresh schema.
enum StoreDatabaseKind: String, CustomStringConvertible, Sendable {
  case sqlite = "SQLite"
  case postgres = "PostgreSQL"

  var description: String { rawValue }

  /// The server of the PostgreSQL cases, or `nil`.
  static let postgresURL = ProcessInfo.processInfo.environment["STATEMACHINES_PG_URL"]

  /// SQLite, and PostgreSQL when a server is configured.
  static let enabled: [StoreDatabaseKind] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
}

/// A schema of its own on the test server, reached with SQL from the tests.
struct PostgresTestSchema: Sendable {
  let name: String
  let configuration: PostgresConnection.Configuration
  /// The `--db` URL that selects the schema (libpq's `options=-c search_path=…`).
  let url: String

  /// A new schema on the server of STATEMACHINES_PG_URL.
  static func create() async throws -> PostgresTestSchema {
    let base = try #require(StoreDatabaseKind.postgresURL, "STATEMACHINES_PG_URL is not set")
    let components = try #require(URLComponents(string: base), "STATEMACHINES_PG_URL is not a URL: \(base)")
    let name = "cli_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
    var configuration = PostgresConnection.Configuration(
      host: components.host ?? "localhost", port: components.port ?? 5432, username: components.user ?? "postgres",
      password: components.password, database: String(components.path.dropFirst()), tls: .disable)
    configuration.options.additionalStartupParameters = [("search_path", name)]
    let schema = PostgresTestSchema(
      name: name, configuration: configuration,
      url: base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)")
    try await schema.execute("CREATE SCHEMA \(name)")
    return schema
  }

  /// PgBouncer in front of that server (STATEMACHINES_PGBOUNCER_URL; .ci/run starts it in
  /// transaction pooling), or `nil`.
  static let poolerURL = ProcessInfo.processInfo.environment["STATEMACHINES_PGBOUNCER_URL"]

  /// A new database on the server of STATEMACHINES_PG_URL, in its `public` schema, that the tool
  /// reaches through the pooler with `pgbouncer=true` (PgBouncer refuses a `search_path` or
  /// `options` startup parameter); the tests' own SQL goes to the server directly.
  static func createPooled() async throws -> PostgresTestSchema {
    let base = try #require(StoreDatabaseKind.postgresURL, "STATEMACHINES_PG_URL is not set")
    let pooler = try #require(poolerURL, "STATEMACHINES_PGBOUNCER_URL is not set")
    let components = try #require(URLComponents(string: base), "STATEMACHINES_PG_URL is not a URL: \(base)")
    var poolerComponents = try #require(URLComponents(string: pooler), "STATEMACHINES_PGBOUNCER_URL is not a URL: \(pooler)")
    let name = "cli_pool_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
    let server = PostgresConnection.Configuration(
      host: components.host ?? "localhost", port: components.port ?? 5432, username: components.user ?? "postgres",
      password: components.password, database: String(components.path.dropFirst()), tls: .disable)
    try await PostgresTestSchema(name: "public", configuration: server, url: base).execute("CREATE DATABASE \(name)")
    var configuration = server
    configuration.database = name
    poolerComponents.path = "/\(name)"
    poolerComponents.queryItems = [URLQueryItem(name: "pgbouncer", value: "true")]
    return PostgresTestSchema(name: "public", configuration: configuration, url: poolerComponents.string ?? pooler)
  }

  private static var logger: Logger {
    var logger = Logger(label: "statemachineTests")
    logger.logLevel = .critical
    return logger
  }

  /// Runs `body` on a new connection to the schema, closed afterwards.
  func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.logger)
    do {
      let value = try await body(connection)
      try await connection.close()
      return value
    } catch {
      try? await connection.close()
      throw PostgresTestError(String(reflecting: error))
    }
  }

  /// Runs one statement.
  func execute(_ sql: String) async throws {
    try await withConnection { connection in
      _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).collect()
    }
  }

  /// The rows of a query, each as its JSON object (`row_to_json`).
  func rows(_ sql: String) async throws -> [[String: Any]] {
    let texts = try await withConnection { connection in
      try await connection.query(
        PostgresQuery(unsafeSQL: "SELECT row_to_json(q)::text FROM (\(sql)) q"), logger: Self.logger
      ).collect().map { try $0.decode(String.self) }
    }
    return try texts.map { text in
      try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
  }
}

struct PostgresTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension StoreFixture {
  /// Runs SQL on the database.
  func sql(_ statement: String) async throws {
    if let schema {
      try await schema.execute(statement)
    } else {
      try Self.sqlite(db) { db in try db.execute(sql: statement) }
    }
  }

  /// Runs `body` on the SQLite file at `path`, in a write transaction.
  private static func sqlite<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
    try DatabaseQueue(path: path).write(body)
  }

  /// The rows of a query, each column by name: integers as `Int`, text as `String`, NULL as `NSNull`.
  func rows(_ sql: String) async throws -> [[String: Any]] {
    if let schema { return try await schema.rows(sql) }
    return try Self.sqlite(db) { db in
      try GRDB.Row.fetchAll(db, sql: sql).map { row -> [String: Any] in
        Dictionary(
          row.columnNames.map { name -> (String, Any) in
            let value = row[name] as DatabaseValue
            switch value.storage {
            case .null: return (name, NSNull())
            case .int64(let int): return (name, Int(int))
            case .double(let double): return (name, double)
            case .string(let string): return (name, string)
            case .blob(let data): return (name, data)
            }
          }, uniquingKeysWith: { first, _ in first })
      }
    }
  }

  /// The first column of a query's rows, as text.
  func strings(_ sql: String) async throws -> [String] {
    try await rows(sql).map { row in
      let value = row.values.first
      return value.map { "\($0)" } ?? ""
    }
  }

  /// The one integer of a one-row, one-column query.
  func int(_ sql: String) async throws -> Int? {
    try await rows(sql).first?.values.first as? Int
  }

  /// Every row of the library's tables, as text: equal before and after a command that must
  /// write nothing.
  func contents() async throws -> String {
    var tables: [String] = []
    for table in ["sm_machines", "sm_instances", "sm_transitions", "sm_deadlines", "sm_outbox"] {
      if let schema {
        tables.append(try await schema.rows("SELECT row_to_json(t)::text AS j FROM \(table) t ORDER BY j")
          .map { "\($0["j"] ?? "")" }.joined(separator: "\n"))
      } else {
        tables.append(try Self.sqlite(db) { db in
          try GRDB.Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2").map(\.description).joined(separator: "\n")
        })
      }
    }
    return tables.joined(separator: "\n--\n")
  }

  /// Whether the database has no table at all: `init` refused before creating anything.
  func isEmpty() async throws -> Bool {
    if let schema {
      return try await schema.rows("SELECT tablename FROM pg_tables WHERE schemaname = '\(schema.name)'").isEmpty
    }
    return !FileManager.default.fileExists(atPath: db)
  }

  /// The same database under `--db`'s other spelling: `sqlite:PATH`, or `postgresql://`.
  var otherSpelling: String {
    schema == nil ? "sqlite:\(db)" : "postgresql://" + db.dropFirst("postgres://".count)
  }
}
