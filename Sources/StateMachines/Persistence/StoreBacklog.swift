// What a scheduler has left behind (Persistence §7, P11, P16): the health signal of durable
// timeouts and the outbox, read after every idle pass.

import Foundation

/// What a store's scheduler has not done (P11, P16): ``StateMachineStore/schedulerBacklog()``.
public struct StoreBacklog: Sendable, Hashable {
  /// Deadlines parked after too many failed attempts.
  public var parkedDeadlines: Int
  /// Outbox messages parked after too many failed deliveries.
  public var parkedMessages: Int
  /// How long the oldest due, unparked deadline has waited, on the store's clock; `nil` when none is due.
  public var oldestDueDeadlineAge: Duration?

  /// A backlog.
  public init(parkedDeadlines: Int, parkedMessages: Int, oldestDueDeadlineAge: Duration?) {
    self.parkedDeadlines = parkedDeadlines
    self.parkedMessages = parkedMessages
    self.oldestDueDeadlineAge = oldestDueDeadlineAge
  }

  /// The age of a deadline due at `dueAt` when it is `now`, or `nil` when it is not due.
  package static func age(dueAt: Date?, now: Date) -> Duration? {
    guard let dueAt, dueAt <= now else { return nil }
    return .milliseconds(Int64((now.timeIntervalSince(dueAt) * 1000).rounded()))
  }
}
