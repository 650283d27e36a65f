// What a scheduler loop has done (Persistence §7), for an application's metrics and health checks,
// and how long it waits after a failed pass. A scheduler that stopped would be durable timeouts
// that never fire, so the loops never stop on an error: they count it, report it and back off.

import Foundation

/// The counters of a scheduler loop: ``StateMachineStore/runScheduler(poll:batch:maxBackoff:counters:onFailure:)``
/// or a PostgreSQL store's scheduler service. Read ``snapshot`` at any time, from any task.
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
  }

  // `@unchecked Sendable`: every access to `value` happens under `lock`.
  private let lock = NSLock()
  private var value = Snapshot()

  /// New counters, all zero.
  public init() {}

  /// The counters now.
  public var snapshot: Snapshot { lock.withLock { value } }

  /// Counts a pass that fired `fired` deadlines and delivered `delivered` messages.
  package func succeeded(fired: Int, delivered: Int) {
    lock.withLock {
      value.passes += 1
      value.fired += fired
      value.delivered += delivered
      value.consecutiveFailures = 0
      value.lastSuccess = Date()
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
