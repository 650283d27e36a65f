// One scheduler pass with a time limit (Persistence §7): a pass that waits for a connection to a
// server that is gone must fail, be counted and reported, and never hold the loop.

import Foundation

extension StoreSchedulerCounters {
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
}

/// A scheduler pass that did not finish within its time limit (a database that does not answer);
/// it was cancelled and counted as a failed pass.
public struct StoreSchedulerTimeout: Error, CustomStringConvertible {
  /// The pass's time limit.
  public let timeout: Duration

  public var description: String { "the scheduler pass took longer than \(timeout)" }
}

/// The outcome of one pass, given once: by the pass, its timer or the caller's cancellation.
///
/// `@unchecked Sendable`: `result` and `waiter` are read and written only under `lock`.
private final class PassOutcome<T: Sendable>: @unchecked Sendable {
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
