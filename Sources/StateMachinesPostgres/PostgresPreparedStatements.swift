// The store's statements, planned once per connection (Many application servers, prepared
// statements): PostgreSQL plans an unnamed statement on every call, and for the store's fast
// statement planning is most of the server's work. A statement with binds, all of them the
// store's own (``PostgresStatement/literalArguments``), is prepared with `PREPARE` on each connection the first time
// it is sent there, right ahead of its `EXECUTE` in the same flight, and executed by name from
// then on.
//
// SQL's `PREPARE` rather than the protocol's: postgres-nio (1.33) prepares at run time only
// through its older interface, which decodes a prepared statement's binary results as text, and
// its `PostgresPreparedStatement` needs SQL fixed per Swift type. `EXECUTE` takes no protocol
// parameters, so its arguments are literals (``PostgresLiteral``).
//
// A prepared statement lives in the server's session, so it can go away under the store: a
// `DEALLOCATE ALL`, a transaction-pooling PgBouncer handing the next transaction another
// session, a table altered so that a returned column changed its type. The server then refuses
// the `EXECUTE` before running any of it; the store forgets the statement, and the caller runs
// it again (the fast path) or its transaction again (the locked step), which prepares it anew
// under a new name. A connection the server closed takes its statements with it: the pool opens
// a new one, which has none.

#if PostgreSQL
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The statements one store prepared, by connection; at most ``capacity`` per connection, the
/// least recently used deallocated first.
///
/// `@unchecked Sendable`: every `var` is read and written only under `lock`.
final class PostgresPreparedStatements: @unchecked Sendable {
  /// Statements kept per connection: a store sends a few shapes per event, so this holds a
  /// machine's working set without letting an unusual one grow the server's memory.
  static let capacity = 64

  /// What to send for one statement on one connection.
  struct Use {
    /// The prepared statement's name.
    let name: String
    /// Whether to `PREPARE` it first (the connection does not have it yet).
    let prepares: Bool
    /// Statements to `DEALLOCATE` first: displaced, or refused by the server.
    let deallocates: [String]
  }

  private struct Prepared {
    let name: String
    var lastUse: UInt64
  }

  /// A connection's statements; the entry holds the connection, so that its identifier is not
  /// reused while the entry exists.
  private struct Connection {
    let connection: PostgresConnection
    var statements: [String: Prepared] = [:]
    var released: [String] = []
  }

  private let lock = NSLock()
  private var connections: [ObjectIdentifier: Connection] = [:]
  private var uses: UInt64 = 0

  /// What to send for `sql` on `connection`. A statement to prepare counts as prepared from now
  /// on, as the statements sent after it on the connection run after its `PREPARE`; the caller
  /// forgets it if the `PREPARE` fails.
  func use(_ sql: String, on connection: PostgresConnection) -> Use {
    lock.withLock {
      let id = ObjectIdentifier(connection)
      if connections[id] == nil {
        // A closed connection's statements went with its session.
        connections = connections.filter { !$0.value.connection.isClosed }
        connections[id] = Connection(connection: connection)
      }
      uses += 1
      // In place (`connections[id]!.…`): a copy of the entry would copy its dictionary on write.
      var deallocates: [String] = []
      if !connections[id]!.released.isEmpty { swap(&deallocates, &connections[id]!.released) }
      // One hash of the text per send: the index finds the entry to mark used.
      if let index = connections[id]!.statements.index(forKey: sql) {
        connections[id]!.statements.values[index].lastUse = uses
        return Use(name: connections[id]!.statements.values[index].name, prepares: false, deallocates: deallocates)
      }
      if connections[id]!.statements.count >= Self.capacity,
        let oldest = connections[id]!.statements.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        deallocates.append(oldest.value.name)
        connections[id]!.statements[oldest.key] = nil
      }
      let name = PostgresStatementNames.shared.next()
      connections[id]!.statements[sql] = Prepared(name: name, lastUse: uses)
      return Use(name: name, prepares: true, deallocates: deallocates)
    }
  }

  /// Forgets the statement `name` for `sql` on `connection`; with `exists`, the session still has
  /// it (the server refused to run it), and it is deallocated before the connection's next
  /// statement.
  func forget(_ sql: String, name: String, on connection: PostgresConnection, exists: Bool) {
    lock.withLock {
      let id = ObjectIdentifier(connection)
      guard connections[id]?.statements[sql]?.name == name else { return }
      connections[id]!.statements[sql] = nil
      if exists { connections[id]!.released.append(name) }
    }
  }

  /// Forgets every statement of `connection`: its session lost one it had prepared, which a
  /// `DEALLOCATE ALL` or a pooler's change of session does to all of them at once.
  func forgetAll(on connection: PostgresConnection) {
    _ = lock.withLock { connections.removeValue(forKey: ObjectIdentifier(connection)) }
  }
}

/// Names of prepared statements, unique in the process, so that two stores never prepare the
/// same name on one connection and a statement prepared again never reuses its old name.
///
/// `@unchecked Sendable`: `last` is read and written only under `lock`.
final class PostgresStatementNames: @unchecked Sendable {
  static let shared = PostgresStatementNames()
  private let lock = NSLock()
  private var last = 0

  func next() -> String {
    "sm_statement_\(lock.withLock { last += 1; return last })"
  }
}

extension PostgresConnection {
  /// Sends `statement`, prepared in `preparedStatements` when it can be (all its binds are the
  /// store's own) and the store prepares statements; otherwise unprepared.
  func send(_ statement: PostgresStatement, preparedIn preparedStatements: PostgresPreparedStatements?, logger: Logger)
    -> PostgresAnswer
  {
    guard let preparedStatements, let arguments = statement.literalArguments else {
      return send(statement.query, logger: logger)
    }
    let sql = statement.sql
    let use = preparedStatements.use(sql, on: self)
    return send(logger: logger) { connection in
      // One flight: the server answers each in turn, and the first failure is the answer.
      var before = use.deallocates.map { connection.query(PostgresQuery(unsafeSQL: "DEALLOCATE \($0)"), logger: logger) }
      if use.prepares { before.append(connection.query(PostgresQuery(unsafeSQL: "PREPARE \(use.name) AS \(sql)"), logger: logger)) }
      let execute = connection.query(
        PostgresQuery(unsafeSQL: "EXECUTE \(use.name)(\(arguments.joined(separator: ", ")))"), logger: logger)
      guard !before.isEmpty else { return execute.map(\.rows) }
      return EventLoopFuture.andAllSucceed(before, on: connection.eventLoop).flatMap { execute.map(\.rows) }
    } failed: { error in
      switch PostgresStoreFailure.ServerReport(error)?.sqlState {
      case PostgresStoreFailure.invalidStatementName:
        // Gone: and so, most likely, is every statement prepared in the session.
        preparedStatements.forgetAll(on: self)
      case PostgresStoreFailure.featureNotSupported:
        // The session has the statement and will not run it (its result's type changed).
        preparedStatements.forget(sql, name: use.name, on: self, exists: true)
      default:
        // A failed flight that was to prepare the statement may not have.
        if use.prepares { preparedStatements.forget(sql, name: use.name, on: self, exists: false) }
      }
    }
  }
}
#endif
