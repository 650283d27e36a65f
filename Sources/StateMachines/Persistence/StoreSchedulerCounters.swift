// What a scheduler loop has done (Persistence §7), for an application's metrics and health checks,
// and how long it waits after a failed pass. A scheduler that stopped would be durable timeouts
// that never fire, so the loops never stop on an error: they count it, report it and back off.

import Foundation

/// The counters of a scheduler loop: ``StateMachineStore/runScheduler(poll:batch:maxBackoff:passTimeout:counters:onFailure:)``
/// or a PostgreSQL store's scheduler service. Read ``snapshot`` at any time, from any task.
///
/// It is `Sendable` (`@unchecked`: every access to the counters happens under its lock).
public final class StoreSchedulerCounters: @unchecked Sendable {
  /// The counters at one moment.
  public struct Snapshot: Sendable, Hashable {
    /// Passes run, failed ones included.
    public var passes = 0
    /// Due deadlines the passes fired or consumed (P9, P10).
    public var fired = 0
    /// Outbox messages the passes delivered (P16).
    public var delivered = 0
    /// Passes that failed (a locked database, a server restarting, …).
    public var failedPasses = 0
    /// Failed passes since the last one that succeeded: 0 when the loop is healthy.
    public var consecutiveFailures = 0
    /// What the last failed pass threw.
    public var lastError: String?
    /// When the last pass succeeded.
    public var lastSuccess: Date?
    /// Deadlines parked after too many failed attempts (P11), as the last backlog read found them.
    public var parkedDeadlines = 0
    /// Outbox messages parked after too many failed deliveries (P16), likewise.
    public var parkedMessages = 0
    /// How long the oldest deadline that is due has waited, on the store's clock; `nil` when none
    /// is due. A healthy scheduler keeps it near zero; one that cannot run lets it grow.
    public var oldestDueDeadlineAge: Duration?
  }

  private let lock = NSLock()
  private var value = Snapshot()

  /// New counters, all zero.
  public init() {}

  /// The counters now.
  public var snapshot: Snapshot { lock.withLock { value } }

  /// Counts deadlines a pass fired, as soon as they are committed (a pass that fails later, or
  /// runs late, still fired them).
  package func fired(_ count: Int) {
    lock.withLock { value.fired += count }
  }

  /// Counts messages a pass delivered.
  package func delivered(_ count: Int) {
    lock.withLock { value.delivered += count }
  }

  /// Counts a pass that succeeded.
  package func succeeded() {
    lock.withLock {
      value.passes += 1
      value.consecutiveFailures = 0
      value.lastSuccess = Date()
    }
  }

  /// Records what the scheduler has left behind after a pass.
  package func backlog(_ backlog: StoreBacklog) {
    lock.withLock {
      value.parkedDeadlines = backlog.parkedDeadlines
      value.parkedMessages = backlog.parkedMessages
      value.oldestDueDeadlineAge = backlog.oldestDueDeadlineAge
    }
  }

  /// Counts a failed pass; returns how many failed in a row, this one included.
  @discardableResult
  package func failed(_ error: any Error) -> Int {
    lock.withLock {
      value.passes += 1
      value.failedPasses += 1
      value.consecutiveFailures += 1
      value.lastError = "\(error)"
      return value.consecutiveFailures
    }
  }

  /// How long a loop waits after `failures` failed passes in a row: `poll`, doubled after each
  /// further failure, at most `maxBackoff` (and never less than `poll`).
  package static func backoff(after failures: Int, poll: Duration, maxBackoff: Duration) -> Duration {
    var wait = poll
    for _ in 1..<max(1, min(failures, 32)) where wait < maxBackoff { wait = wait * 2 }
    return max(poll, min(wait, maxBackoff))
  }
}
