import Foundation
import PostgresNIO
import StateMachinesPostgres

/// A `postgres://` (or `postgresql://`) URL as `--db` gives it, in libpq's form:
/// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…&options=…&application_name=…`, and the
/// connection-string convention `pgbouncer=true` for a transaction-pooling PgBouncer before 1.21.
///
/// What the URL leaves out comes from libpq's variables (`PGUSER`, `PGPASSWORD`, `PGDATABASE`)
/// or libpq's defaults (the login name, `localhost`, 5432). `options` is passed to the server as
/// libpq passes it (`-c search_path=app` selects the schema of the tables).
struct PostgresURL {
  let host: String
  let port: Int
  let username: String
  let password: String?
  let database: String
  /// `disable`, `allow`, `prefer` (the default), `require`, `verify-ca` or `verify-full`.
  let sslMode: String
  /// Startup parameters for the server (`options`, `application_name`).
  let parameters: [(String, String)]
  /// The store's options: `pgbouncer=true` from the URL.
  let storeOptions: PostgresStoreOptions

  /// The URL without its password, as messages name the database.
  var label: String { "postgres://\(username)@\(host):\(port)/\(database)" }

  init(_ text: String) throws {
    guard let components = URLComponents(string: text), components.scheme == "postgres" || components.scheme == "postgresql"
    else { throw ToolError("error: --db '\(text)' is not a postgres:// URL") }
    let environment = ProcessInfo.processInfo.environment
    var host = components.host ?? ""
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    self.host = host.isEmpty ? "localhost" : host
    port = components.port ?? 5432
    username = components.user ?? environment["PGUSER"] ?? NSUserName()
    password = components.password ?? environment["PGPASSWORD"]
    let path = String(components.path.drop(while: { $0 == "/" }))
    database = path.isEmpty ? (environment["PGDATABASE"] ?? username) : path
    var sslMode = "prefer"
    var parameters = [("application_name", "statemachine")]
    var pgbouncer = false
    for item in components.queryItems ?? [] {
      let value = item.value ?? ""
      switch item.name {
      case "sslmode":
        guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(value) else {
          throw ToolError("error: --db: sslmode '\(value)' is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        sslMode = value
      case "options", "application_name":
        parameters.removeAll { $0.0 == item.name }
        parameters.append((item.name, value))
      case "pgbouncer":
        guard ["true", "false"].contains(value) else {
          throw ToolError("error: --db: pgbouncer '\(value)' is not true or false")
        }
        pgbouncer = value == "true"
      default:
        throw ToolError(
          "error: --db: unsupported URL parameter '\(item.name)' (sslmode, options, application_name, pgbouncer)")
      }
    }
    self.sslMode = sslMode
    self.parameters = parameters
    self.storeOptions = PostgresStoreOptions(pgbouncer: pgbouncer)
  }

  /// The TLS configuration of `sslMode`: `require` encrypts without checking the certificate,
  /// as libpq does; `verify-ca` checks the chain, `verify-full` the host name too.
  var tlsConfiguration: TLSConfiguration? {
    guard sslMode != "disable" else { return nil }
    var configuration = TLSConfiguration.makeClientConfiguration()
    switch sslMode {
    case "verify-full": configuration.certificateVerification = .fullVerification
    case "verify-ca": configuration.certificateVerification = .noHostnameVerification
    default: configuration.certificateVerification = .none
    }
    return configuration
  }

  /// Whether a server without TLS is refused.
  var requiresTLS: Bool { ["require", "verify-ca", "verify-full"].contains(sslMode) }

  /// The configuration of the connection the commands' own statements use.
  func connectionConfiguration() throws -> PostgresConnection.Configuration {
    let tls: PostgresConnection.Configuration.TLS
    if let tlsConfiguration {
      let context = try NIOSSLContext(configuration: tlsConfiguration)
      tls = requiresTLS ? .require(context) : .prefer(context)
    } else {
      tls = .disable
    }
    var configuration = PostgresConnection.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: tls)
    configuration.options.additionalStartupParameters = parameters
    return configuration
  }

  /// The configuration of the pool the instance store uses.
  func clientConfiguration() -> PostgresClient.Configuration {
    let tls: PostgresClient.Configuration.TLS
    if let tlsConfiguration {
      tls = requiresTLS ? .require(tlsConfiguration) : .prefer(tlsConfiguration)
    } else {
      tls = .disable
    }
    var configuration = PostgresClient.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: tls)
    configuration.options.additionalStartupParameters = parameters
    configuration.options.maximumConnections = 2
    return configuration
  }
}
