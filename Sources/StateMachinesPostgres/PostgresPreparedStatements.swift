// The store's statements, planned once per connection (Many application servers, prepared
// statements): PostgreSQL plans an unnamed statement on every call, and for the store's fast
// statement planning is most of the server's work. A statement whose binds are all the store's
// own (``PostgresStatement/isPreparable``) is prepared at the protocol level (Parse) on each
// connection the first time it is sent there, and bound and executed by name from then on
// (``PostgresConnection/rows(of:preparedIn:autocommit:logger:)``).
//
// A prepared statement lives in the server's session, so it can go away under the store: a
// `DEALLOCATE ALL`, a transaction-pooling PgBouncer handing the next transaction another
// session, a table altered so that a returned column changed its type. The server then refuses
// the statement before running any of it; the store forgets it, and the caller runs it again
// (the fast path) or its transaction again (the locked step), which prepares it anew under a new
// name. A name is never used twice: postgres-nio keeps, per connection, what it prepared under
// each name, and an unknown name is the only way to have it prepare again. A connection the
// server closed takes its statements with it: the pool opens a new one, which has none.

#if PostgreSQL
import Foundation
import PostgresNIO

/// The statements one store prepared, by connection; at most ``capacity`` per connection, the
/// least recently used deallocated first.
///
/// `@unchecked Sendable`: every `var` is read and written only under `lock`.
final class PostgresPreparedStatements: @unchecked Sendable {
  /// Statements kept per connection: a store sends a few shapes per event, so the default holds a
  /// machine's working set without letting an unusual one grow the server's memory.
  var capacity: Int {
    get { lock.withLock { _capacity } }
    set { lock.withLock { _capacity = max(1, newValue) } }
  }

  /// What to send for one statement on one connection.
  struct Use {
    /// The prepared statement's name.
    let name: String
    /// Whether the connection has not run it yet (postgres-nio prepares it first).
    let isNew: Bool
    /// Statements to `DEALLOCATE`, each on its own: displaced, or refused by the server.
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
  private var _capacity = 64
  private var connections: [ObjectIdentifier: Connection] = [:]
  private var uses: UInt64 = 0

  /// What to send for `sql` on `connection`. With `deallocating`, the statements displaced or
  /// refused earlier are handed out to deallocate (only outside a transaction: a `DEALLOCATE`
  /// the server refuses, because the session has lost the statement, would abort it).
  func use(_ sql: String, on connection: PostgresConnection, deallocating: Bool) -> Use {
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
      if deallocating, !connections[id]!.released.isEmpty { swap(&deallocates, &connections[id]!.released) }
      // One hash of the text per send: the index finds the entry to mark used.
      if let index = connections[id]!.statements.index(forKey: sql) {
        connections[id]!.statements.values[index].lastUse = uses
        return Use(name: connections[id]!.statements.values[index].name, isNew: false, deallocates: deallocates)
      }
      if connections[id]!.statements.count >= _capacity,
        let oldest = connections[id]!.statements.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        connections[id]!.released.append(oldest.value.name)
        connections[id]!.statements[oldest.key] = nil
      }
      let name = PostgresStatementNames.shared.next()
      connections[id]!.statements[sql] = Prepared(name: name, lastUse: uses)
      return Use(name: name, isNew: true, deallocates: deallocates)
    }
  }

  /// Forgets the statement `name` for `sql` on `connection`; it is deallocated later, as the
  /// session may still have it.
  func forget(_ sql: String, name: String, on connection: PostgresConnection) {
    lock.withLock {
      let id = ObjectIdentifier(connection)
      guard connections[id]?.statements[sql]?.name == name else { return }
      connections[id]!.statements[sql] = nil
      connections[id]!.released.append(name)
    }
  }

  /// Forgets every statement of `connection`: its session lost one it had prepared, which a
  /// `DEALLOCATE ALL` or a pooler's change of session does to all of them at once.
  func forgetAll(on connection: PostgresConnection) {
    _ = lock.withLock { connections.removeValue(forKey: ObjectIdentifier(connection)) }
  }

  /// The names `connection` has prepared, for tests.
  func names(on connection: PostgresConnection) -> Set<String> {
    lock.withLock { Set(connections[ObjectIdentifier(connection)]?.statements.values.map(\.name) ?? []) }
  }
}

/// Names of prepared statements, unique across processes: `sm_` then a random token of the
/// process, then a counter. Two processes whose connections a transaction-pooling pooler puts on
/// one server session never prepare, nor run, each other's statements under one name; two
/// stores of one process never share a name on a connection; a statement prepared again gets a
/// new name.
///
/// `@unchecked Sendable`: `last` is read and written only under `lock`.
final class PostgresStatementNames: @unchecked Sendable {
  static let shared = PostgresStatementNames()
  /// 64 random bits, in base 36.
  let token = String(UInt64.random(in: .min ... .max), radix: 36)
  private let lock = NSLock()
  private var last = 0

  func next() -> String {
    "sm_\(token)_\(lock.withLock { last += 1; return last })"
  }
}
#endif
