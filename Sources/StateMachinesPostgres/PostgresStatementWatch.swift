// The statements in flight, and one task that looks at their connections while there are any:
// a statement whose connection closed without an answer fails (see PostgresConnection+Answered).
// One watcher for the process instead of one per statement; it ends when nothing is in flight
// and the next statement starts it again.

#if PostgreSQL
import Foundation
import PostgresNIO

/// The statements waiting for an answer, each with its connection.
///
/// `@unchecked Sendable`: `waiting` and `watching` are read and written only under `lock`.
final class PostgresStatementWatch: @unchecked Sendable {
  /// The watch of every store in the process.
  static let shared = PostgresStatementWatch()

  /// How often the watcher looks at the connections of waiting statements.
  static let interval = Duration.milliseconds(200)

  private struct Waiting {
    let connection: PostgresConnection
    let answer: PostgresAnswer
    /// Whether the watcher found the connection closed already: it fails the statement on its
    /// next look, one more interval for the query to fail by itself with the server's error.
    var closedSeen = false
  }

  private let lock = NSLock()
  private var waiting: [ObjectIdentifier: Waiting] = [:]
  private var watching = false

  /// Watches `answer`'s statement on `connection` until ``forget(_:)``.
  func watch(_ answer: PostgresAnswer, on connection: PostgresConnection) {
    let start = lock.withLock {
      waiting[ObjectIdentifier(answer)] = Waiting(connection: connection, answer: answer)
      if watching { return false }
      watching = true
      return true
    }
    if start { Task { await self.run() } }
  }

  /// Stops watching `answer`'s statement: it was answered.
  func forget(_ answer: PostgresAnswer) {
    _ = lock.withLock { waiting.removeValue(forKey: ObjectIdentifier(answer)) }
  }

  /// Looks at the waiting statements every ``interval`` until none is left.
  private func run() async {
    while true {
      try? await Task.sleep(for: Self.interval)
      let lost: [PostgresAnswer]? = lock.withLock {
        if waiting.isEmpty {
          watching = false
          return nil
        }
        var lost: [PostgresAnswer] = []
        for (id, statement) in waiting where statement.connection.isClosed {
          if statement.closedSeen {
            lost.append(statement.answer)
            waiting[id] = nil
          } else {
            waiting[id]?.closedSeen = true
          }
        }
        return lost
      }
      guard let lost else { return }
      for answer in lost {
        answer.give(
          .failure(PostgresStoreFailure(PostgresStoreFailure.closedMessage, sqlState: PostgresStoreFailure.connectionFailure)))
      }
    }
  }
}
#endif
