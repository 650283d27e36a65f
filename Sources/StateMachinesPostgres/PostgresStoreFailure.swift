// PostgreSQL's errors as the store's typed errors: a row locked under `NOWAIT` is `.locked`
// (P3), a deadlock is retried (Persistence §3, isolation), a COMMIT that fails on the
// connection is `.commitOutcomeUnknown` (P6), anything else the database's own failure.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

/// A failure of the PostgreSQL store: the server's SQLSTATE and message, when the server sent one.
public struct PostgresStoreFailure: Error, CustomStringConvertible {
  /// The SQLSTATE code (`40P01` for a deadlock, …), when the server reported the error.
  public let sqlState: String?
  /// What went wrong.
  public let description: String
  /// The error postgres-nio threw, if any.
  public let underlying: (any Error)?

  /// Whether the transaction's BEGIN failed on a closed connection: nothing ran, a retry is safe.
  let closedAtBegin: Bool

  init(_ description: String, sqlState: String? = nil, underlying: (any Error)? = nil, closedAtBegin: Bool = false) {
    self.description = description
    self.sqlState = sqlState
    self.underlying = underlying
    self.closedAtBegin = closedAtBegin
  }

  /// SQLSTATE of `connection_failure`, given to a statement the store did not send because its
  /// connection was already closed.
  static let connectionFailure = "08006"

  /// The failure of a statement not sent because the server had ended its connection. postgres-nio
  /// (1.33) can leave a query sent on such a connection waiting for an answer forever, so the store
  /// looks before it sends.
  static func closedBeforeSending() -> StateMachineStoreError {
    .database(PostgresStoreFailure(closedMessage, sqlState: connectionFailure))
  }

  /// What a statement whose connection closed under it says.
  static let closedMessage = "the connection was closed (the server ended the session)"

  /// SQLSTATE of `lock_not_available`: a `FOR UPDATE NOWAIT` found the row locked.
  static let lockNotAvailable = "55P03"
  /// SQLSTATE of `deadlock_detected`.
  static let deadlockDetected = "40P01"

  /// `error` as a store error about the row with `key`.
  static func map(_ error: any Error, key: String) -> StateMachineStoreError {
    if let error = error as? StateMachineStoreError { return error }
    if let report = ServerReport(error) {
      if report.sqlState == lockNotAvailable { return .locked(id: key) }
      var message = "\(report.message ?? "the server refused the statement") (SQLSTATE \(report.sqlState ?? "?"))"
      if report.sqlState == invalidStatementName { message += lostStatementAdvice }
      return .database(PostgresStoreFailure(message, sqlState: report.sqlState, underlying: error))
    }
    if let error = error as? PSQLError { return .database(PostgresStoreFailure("\(error.code)", underlying: error)) }
    return .database(error)
  }

  /// Whether `error` lost the connection rather than being refused by the server: after a COMMIT,
  /// its outcome is unknown (P6).
  static func isConnectionLoss(_ error: any Error) -> Bool {
    guard let report = ServerReport(error) else { return true }
    // A FATAL error ends the session (an idle-in-transaction timeout, an administrator's
    // termination); class 08 is a connection exception.
    return report.severity == "FATAL" || report.severity == "PANIC" || report.sqlState?.hasPrefix("08") == true
  }

  /// Whether postgres-nio says the connection closed.
  private static func isClosed(_ error: any Error) -> Bool {
    guard let error = error as? PSQLError else { return false }
    return [.serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError].contains(error.code)
  }

  /// What the server reported of a statement it refused.
  struct ServerReport {
    let sqlState: String?
    let severity: String?
    let message: String?

    init?(_ error: any Error) {
      if let error = error as? PSQLError, error.code == .server, let info = error.serverInfo {
        sqlState = info[.sqlState]
        severity = info[.severity] ?? info[.localizedSeverity]
        message = info[.message]
      } else {
        return nil
      }
    }
  }

  /// Whether a step's `error` ended its session: the server ended it (a FATAL error such as an
  /// administrator's termination) or the connection closed. There is no transaction left to roll
  /// back (the server rolled it back when the session ended), and a ROLLBACK sent on that
  /// connection can wait for an answer that never comes.
  static func endedSession(_ error: any Error) -> Bool {
    var underlying = error
    if case .database(let failure as PostgresStoreFailure) = error as? StateMachineStoreError {
      if failure.sqlState == connectionFailure { return true }
      guard let cause = failure.underlying else { return false }
      underlying = cause
    }
    if ServerReport(underlying) != nil { return isConnectionLoss(underlying) }
    return isClosed(underlying)
  }

  /// Whether `error` came from a connection that was already closed (the pool can hand out a
  /// connection the server ended before the pool noticed): the statement never ran.
  static func isClosedConnection(_ error: StateMachineStoreError) -> Bool {
    guard case .database(let failure as PostgresStoreFailure) = error else { return false }
    if failure.sqlState == connectionFailure { return true }
    guard let underlying = failure.underlying as? PSQLError else { return false }
    return underlying.code == .serverClosedConnection || underlying.code == .clientClosedConnection
  }

  /// `error` of a BEGIN, marked when it found the connection closed.
  static func atBegin(_ error: StateMachineStoreError) -> StateMachineStoreError {
    guard isClosedConnection(error), case .database(let failure as PostgresStoreFailure) = error else { return error }
    return .database(
      PostgresStoreFailure(failure.description, sqlState: failure.sqlState, underlying: failure.underlying, closedAtBegin: true))
  }

  /// Whether a transaction failed at its BEGIN on a closed connection.
  static func isClosedAtBegin(_ error: StateMachineStoreError) -> Bool {
    guard case .database(let failure as PostgresStoreFailure) = error else { return false }
    return failure.closedAtBegin
  }

  /// Whether `error` is a deadlock the server broke by aborting this transaction.
  static func isDeadlock(_ error: StateMachineStoreError) -> Bool {
    guard case .database(let failure as PostgresStoreFailure) = error else { return false }
    return failure.sqlState == deadlockDetected
  }

  /// Whether `error` says a statement prepared on the connection is gone (`26000`: a
  /// `DEALLOCATE`, a pooler that moved the session) or planned for a table that changed the
  /// type of a column it returns (`0A000`, "cached plan must not change result type"). The server
  /// ran nothing of the statement; prepared again, it runs.
  static func isStalePreparedStatement(_ error: any Error) -> Bool {
    var underlying = error
    if case .database(let failure as PostgresStoreFailure) = error as? StateMachineStoreError {
      guard let cause = failure.underlying else { return false }
      underlying = cause
    }
    let state = ServerReport(underlying)?.sqlState
    return state == invalidStatementName || state == featureNotSupported
  }

  static let invalidStatementName = "26000"

  /// What a statement the store prepared and then did not find in the session most likely means
  /// when it happens again and again: a pooler gives the connection's transactions to different
  /// server sessions.
  static let lostStatementAdvice =
    ": a statement the store prepared on this connection is not in the server's session; behind a transaction-pooling"
    + " pooler (PgBouncer before 1.21, or without max_prepared_statements) make the store with pgbouncer: true"
    + " (pgbouncer=true in a URL)"
  static let featureNotSupported = "0A000"

  /// Runs `body`, mapping what it throws.
  static func database<T>(_ key: String, _ body: () async throws -> T) async throws(StateMachineStoreError) -> T {
    do {
      return try await body()
    } catch {
      throw map(error, key: key)
    }
  }

  /// Runs `body`, mapping what it throws (for the synchronous parts: decoding, encoding).
  static func sync<T>(_ key: String, _ body: () throws -> T) throws(StateMachineStoreError) -> T {
    do {
      return try body()
    } catch {
      throw map(error, key: key)
    }
  }
}
#endif
