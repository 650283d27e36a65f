// Every statement of the store goes through `answered`: postgres-nio (1.33) can leave a query
// without an answer forever when the server ends the session (`pg_terminate_backend`, a restart,
// an idle-in-transaction timeout) while the query is in flight or just before it is sent. Seen in
// the tests as a fire that never returned. A dropped connection must be a typed error (P6), so
// each statement also watches its connection and fails once it has closed without an answer.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import StateMachines

extension PostgresConnection {
  /// How often a waiting statement looks at its connection.
  static let closeCheckInterval = Duration.milliseconds(200)

  /// The rows of `query`; or, when the connection closes before they come, a failure with
  /// SQLSTATE `08006` (the statement may have run: after a COMMIT the outcome is unknown, P6).
  ///
  /// A query that postgres-nio never answers is left behind in its own task; the caller goes on.
  func answered(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
    if isClosed { throw PostgresStoreFailure(PostgresStoreFailure.closedMessage, sqlState: PostgresStoreFailure.connectionFailure) }
    return try await withCheckedThrowingContinuation { continuation in
      let answer = OneAnswer(continuation)
      let watcher = Task {
        while true {
          try await Task.sleep(for: Self.closeCheckInterval)
          guard self.isClosed else { continue }
          // One more interval for the query to fail by itself with the server's error.
          try await Task.sleep(for: Self.closeCheckInterval)
          answer.give(.failure(PostgresStoreFailure(PostgresStoreFailure.closedMessage, sqlState: PostgresStoreFailure.connectionFailure)))
          return
        }
      }
      Task {
        do {
          answer.give(.success(try await self.query(query, logger: logger).collect()))
        } catch {
          answer.give(.failure(error))
        }
        watcher.cancel()
      }
    }
  }
}

/// A continuation resumed once, by the query or by the watcher, whichever comes first.
private final class OneAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<[PostgresRow], any Error>?

  init(_ continuation: CheckedContinuation<[PostgresRow], any Error>) { self.continuation = continuation }

  func give(_ result: Result<[PostgresRow], any Error>) {
    lock.lock()
    let waiting = continuation
    continuation = nil
    lock.unlock()
    waiting?.resume(with: result)
  }
}
#endif
