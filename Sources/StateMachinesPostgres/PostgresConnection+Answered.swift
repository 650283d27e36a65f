// Every statement of the store goes through `answered`: postgres-nio (1.33) can leave a query
// without an answer forever when the server ends the session (`pg_terminate_backend`, a restart,
// an idle-in-transaction timeout) while the query is in flight or just before it is sent. Seen in
// the tests as a fire that never returned. A dropped connection must be a typed error (P6), so
// each statement is watched (``PostgresStatementWatch``) and fails once its connection has closed
// without an answer.
//
// A statement goes through postgres-nio's future interface, whose callback gives the answer: no
// task per statement (an earlier version started two, the query's and a watcher's, which cost
// about as much as a round trip on a loaded machine). `send` does not wait, so that a caller can
// queue a second statement behind the first (BEGIN and the row's lock).

#if PostgreSQL
import Foundation
import Logging
import NIOCore
import PostgresNIO
import StateMachines

extension PostgresConnection {
  /// The rows of `query`; or, when the connection closes before they come, a failure with
  /// SQLSTATE `08006` (the statement may have run: after a COMMIT the outcome is unknown, P6).
  func answered(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
    try await send(query, logger: logger).rows()
  }

  /// Sends `query` and returns its answer to wait for; postgres-nio runs the queries of one
  /// connection in the order they were sent. A query that postgres-nio never answers is left
  /// behind with its future, and the watch gives its answer the closed connection's failure.
  func send(_ query: PostgresQuery, logger: Logger) -> PostgresAnswer {
    send(logger: logger) { connection in connection.query(query, logger: logger).map(\.rows) }
  }

  /// Starts a statement with `start` and returns its answer to wait for, watched as
  /// ``send(_:logger:)`` says; `failed` sees the statement's own failure, if any.
  func send(
    logger: Logger, _ start: (PostgresConnection) -> EventLoopFuture<[PostgresRow]>,
    failed: @escaping @Sendable (any Error) -> Void = { _ in }
  ) -> PostgresAnswer {
    let answer = PostgresAnswer()
    if isClosed {
      answer.give(.failure(PostgresStoreFailure(PostgresStoreFailure.closedMessage, sqlState: PostgresStoreFailure.connectionFailure)))
      return answer
    }
    PostgresStatementWatch.shared.watch(answer, on: self)
    start(self).whenComplete { result in
      PostgresStatementWatch.shared.forget(answer)
      if case .failure(let error) = result { failed(error) }
      answer.give(result)
    }
    return answer
  }
}

/// The answer of one statement, given once (by the query or by the watch, whichever comes
/// first), before or after someone waits for it.
///
/// `@unchecked Sendable`: `result` and `waiting` are read and written only under `lock`.
final class PostgresAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<[PostgresRow], any Error>?
  private var waiting: CheckedContinuation<[PostgresRow], any Error>?

  /// Gives the answer; the first one given wins.
  func give(_ answer: Result<[PostgresRow], any Error>) {
    let resumed: CheckedContinuation<[PostgresRow], any Error>? = lock.withLock {
      guard result == nil else { return nil }
      result = answer
      defer { waiting = nil }
      return waiting
    }
    resumed?.resume(with: answer)
  }

  /// The rows, once the answer is given.
  func rows() async throws -> [PostgresRow] {
    try await withCheckedThrowingContinuation { continuation in
      let given: Result<[PostgresRow], any Error>? = lock.withLock {
        if let result { return result }
        waiting = continuation
        return nil
      }
      if let given { continuation.resume(with: given) }
    }
  }
}
#endif
