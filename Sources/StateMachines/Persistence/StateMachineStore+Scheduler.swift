// The scheduler loop of any store (PERSISTENCE.md §7): passes of `fireDueTimeouts` and
// `deliverOutbox`, sleeping between them when there was nothing left to do. Correctness lies in
// the passes (P9, P10, P16); the loop only decides when to run them, so any number of loops in
// any number of processes may run at once.

extension StateMachineStore {
  /// Fires due deadlines and delivers outbox messages until the task is cancelled: a pass of
  /// up to `batch` of each, again at once while a pass was full, else after `poll`.
  ///
  /// - Throws: the first error of a pass (a database error); cancellation ends the loop quietly.
  public func runScheduler(poll: Duration = .seconds(1), batch: Int = 32) async throws(StateMachineStoreError) {
    while !Task.isCancelled {
      let fired = try await fireDueTimeouts(limit: batch)
      let delivered = try await deliverOutbox(limit: batch)
      if fired < batch && delivered < batch {
        do {
          try await Task.sleep(for: poll)
        } catch {
          return
        }
      }
    }
  }
}
