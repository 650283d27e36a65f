// What a scheduler loop has done (Persistence §7), for an application's metrics and health checks,
// and how long it waits after a failed pass. A scheduler that stopped would be durable timeouts
// that never fire, so the loops never stop on an error: they count it, report it and back off.

import Foundation

/// The counters of a scheduler loop: ``StateMachineStore/runScheduler(poll:batch:maxBackoff:passTimeout:counters:onFailure:)``
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
    /// Deadlines parked after too many failed attempts (P11), as the last backlog read found them.
    public var parkedDeadlines = 0
    /// Outbox messages parked after too many failed deliveries (P16), likewise.
    public var parkedMessages = 0
    /// How long the oldest deadline that is due has waited, on the store's clock; `nil` when none
    /// is due. A healthy scheduler keeps it near zero; one that cannot run lets it grow.
    public var oldestDueDeadlineAge: Duration?
  }

  // `@unchecked Sendable`: every access to `value` happens under `lock`.
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

  /// Runs one scheduler pass, `work`, failing it with ``StoreSchedulerTimeout`` once it has taken
  /// `timeout`: a pass that waits for a connection to a server that is gone (a pool keeps such
  /// requests waiting) fails, is counted and reported, instead of holding the loop silently. The
  /// late pass is cancelled but not waited for, so nothing it does can stop the loop; what it
  /// still commits is safe, since passes may run side by side (P10). Cancelling the caller ends
  /// the wait at once.
  package static func pass<T: Sendable>(
    timeout: Duration, _ work: @escaping @Sendable () async throws(StateMachineStoreError) -> T
  ) async throws(StateMachineStoreError) -> T {
    let outcome = PassOutcome<T>()
    let worker = Task {
      do throws(StateMachineStoreError) {
        outcome.finish(.success(try await work()))
      } catch {
        outcome.finish(.failure(error))
      }
    }
    let timer = Task {
      try? await Task.sleep(for: timeout)
      outcome.finish(.failure(.database(StoreSchedulerTimeout(timeout: timeout))))
    }
    let result = await withTaskCancellationHandler {
      await outcome.value()
    } onCancel: {
      outcome.finish(.failure(.database(CancellationError())))
    }
    timer.cancel()
    if case .failure = result { worker.cancel() }
    return try result.get()
  }

  /// How long a loop waits after `failures` failed passes in a row: `poll`, doubled after each
  /// further failure, at most `maxBackoff` (and never less than `poll`).
  package static func backoff(after failures: Int, poll: Duration, maxBackoff: Duration) -> Duration {
    var wait = poll
    for _ in 1..<max(1, min(failures, 32)) where wait < maxBackoff { wait = wait * 2 }
    return max(poll, min(wait, maxBackoff))
  }
}

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

/// A scheduler pass that did not finish within its time limit (a database that does not answer);
/// it was cancelled and counted as a failed pass.
public struct StoreSchedulerTimeout: Error, CustomStringConvertible {
  /// The pass's time limit.
  public let timeout: Duration

  public var description: String { "the scheduler pass took longer than \(timeout)" }
}

/// The outcome of one pass, given once: by the pass, its timer or the caller's cancellation.
private final class PassOutcome<T: Sendable>: @unchecked Sendable {
  // `@unchecked Sendable`: `result` and `waiter` change only under `lock`.
  private let lock = NSLock()
  private var result: Result<T, StateMachineStoreError>?
  private var waiter: CheckedContinuation<Result<T, StateMachineStoreError>, Never>?

  /// Sets the outcome, if none was set yet, and wakes the waiter.
  func finish(_ outcome: Result<T, StateMachineStoreError>) {
    let waiter = lock.withLock { () -> CheckedContinuation<Result<T, StateMachineStoreError>, Never>? in
      guard result == nil else { return nil }
      result = outcome
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume(returning: outcome)
  }

  /// The outcome, once set.
  func value() async -> Result<T, StateMachineStoreError> {
    await withCheckedContinuation { continuation in
      let ready = lock.withLock { () -> Result<T, StateMachineStoreError>? in
        if let result { return result }
        waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
