// Waking sleeping schedulers (Persistence §6, §7): a step that arms a deadline due soon, or
// writes an outbox message, sends `NOTIFY sm_wakeup` in its transaction, which PostgreSQL
// delivers only if it commits. Notifications only lower the latency: every scheduler still polls,
// so a lost notification, or none at all (behind a transaction-pooling PgBouncer, where LISTEN
// does not work), delays work by at most one poll interval and never loses it.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

/// When the store's steps wake the schedulers that `LISTEN` (Persistence §7).
///
/// A step notifies when it writes an outbox message or arms a deadline due within ``horizon``
/// (set it to the schedulers' poll interval: a later deadline is found by a poll in time).
public struct PostgresNotifications: Sendable, Hashable {
  /// The channel of the wake-up notifications; the payload is the machine's name.
  public static let channel = "sm_wakeup"

  /// Whether steps send notifications.
  public var isEnabled: Bool
  /// A deadline due within this delay of its step notifies; a later one is left to the polls.
  public var horizon: Duration

  /// Notifications for deadlines due within `horizon` (by default one second, the schedulers'
  /// default poll interval) and for every outbox message.
  public init(isEnabled: Bool = true, horizon: Duration = .seconds(1)) {
    self.isEnabled = isEnabled
    self.horizon = horizon
  }

  /// No notifications: the schedulers find everything by polling.
  public static var disabled: PostgresNotifications { PostgresNotifications(isEnabled: false) }
}

extension PostgresStepEngine {
  /// Sends the wake-up notification in the open transaction when the step wrote a message or
  /// armed a deadline within the horizon (delivered by PostgreSQL only once it commits).
  func wakeSchedulers(_ connection: PostgresConnection, armed delays: [Duration], messages: Int, key: String)
    async throws(StateMachineStoreError)
  {
    guard notifications.isEnabled, messages > 0 || delays.contains(where: { $0 <= notifications.horizon }) else {
      return
    }
    var statement = PostgresStatement()
    statement.sql =
      "SELECT pg_notify(\(statement.bind(PostgresNotifications.channel)), \(statement.bind(table.machine)))"
    try await run(connection, statement, key: key)
  }

  /// How long until the earliest pending deadline or outbox message of the machine is due, by the
  /// store's clock (P15): zero when one is due already, `nil` when there is none.
  func nextDue() async throws(StateMachineStoreError) -> Duration? {
    try await read("") { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      let machine = statement.bind(table.machine)
      let now = self.now(&statement)
      statement.sql = """
        SELECT CAST(EXTRACT(EPOCH FROM LEAST(
          (SELECT min(due_at) FROM sm_deadlines WHERE machine = \(machine) AND NOT parked),
          (SELECT min(available_at) FROM sm_outbox WHERE machine = \(machine) AND NOT parked)) - \(now)) AS float8)
        """
      let rows = try await run(connection, statement, key: "")
      let seconds = try PostgresStoreFailure.sync("") { try rows.first?.decode(Double?.self) }
      return seconds.flatMap { $0 }.map { .milliseconds(Int64(max(0, $0) * 1000)) }
    }
  }

  /// Parked deadlines and messages, and how long the oldest due deadline has waited on the
  /// store's clock (P11, P15, P16), in one statement.
  func schedulerBacklog() async throws(StateMachineStoreError) -> StoreBacklog {
    try await read("") { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      let machine = statement.bind(table.machine)
      let now = self.now(&statement)
      statement.sql = """
        SELECT (SELECT count(*) FROM sm_deadlines WHERE machine = \(machine) AND parked)::bigint,
          (SELECT count(*) FROM sm_outbox WHERE machine = \(machine) AND parked)::bigint,
          CAST(EXTRACT(EPOCH FROM \(now) - (SELECT min(due_at) FROM sm_deadlines
            WHERE machine = \(machine) AND NOT parked AND due_at <= \(now))) AS float8)
        """
      let rows = try await run(connection, statement, key: "")
      let (deadlines, messages, age) = try PostgresStoreFailure.sync("") {
        try rows.first!.decode((Int64, Int64, Double?).self)
      }
      return StoreBacklog(
        parkedDeadlines: Int(deadlines), parkedMessages: Int(messages),
        oldestDueDeadlineAge: age.map { .milliseconds(Int64(($0 * 1000).rounded())) })
    }
  }
}
#endif
