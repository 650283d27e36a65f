// The scheduler loop of any store (Persistence §7): passes of `fireDueTimeouts` and
// `deliverOutbox`, sleeping between them when there was nothing left to do. Correctness lies in
// the passes (P9, P10, P16); the loop only decides when to run them, so any number of loops in
// any number of processes may run at once. It never stops on an error.

extension StateMachineStore {
  /// Fires due deadlines and delivers outbox messages until the task is cancelled: a pass of up
  /// to `batch` of each, again at once while a pass was full, else after `poll`.
  ///
  /// A failed pass (a locked database file, a full disk, a server restarting) does not end the
  /// loop: it is counted in `counters`, reported to `onFailure`, and the loop tries again after
  /// `poll`, doubled after each further failure in a row up to `maxBackoff`. A pass that takes
  /// longer than `passTimeout` (a database that does not answer) is cancelled and fails with
  /// ``StoreSchedulerTimeout``. After a pass that
  /// leaves nothing due, `counters` also gets the ``schedulerBacklog()``. Cancellation ends the loop.
  public func runScheduler(
    poll: Duration = .seconds(1), batch: Int = 32, maxBackoff: Duration = .seconds(30),
    passTimeout: Duration = .seconds(30), counters: StoreSchedulerCounters? = nil,
    onFailure: @Sendable (StateMachineStoreError) -> Void = { _ in }
  ) async {
    let counters = counters ?? StoreSchedulerCounters()
    while !Task.isCancelled {
      var wait = poll
      do {
        let (fired, delivered) = try await StoreSchedulerCounters.pass(timeout: passTimeout) {
          () throws(StateMachineStoreError) in
          let fired = try await fireDueTimeouts(limit: batch)
          counters.fired(fired)
          let delivered = try await deliverOutbox(limit: batch)
          counters.delivered(delivered)
          if fired < batch && delivered < batch { counters.backlog(try await schedulerBacklog()) }
          counters.succeeded()
          return (fired, delivered)
        }
        if fired == batch || delivered == batch { continue }
      } catch {
        if Task.isCancelled { return }
        let failures = counters.failed(error)
        onFailure(error)
        wait = StoreSchedulerCounters.backoff(after: failures, poll: poll, maxBackoff: maxBackoff)
      }
      do {
        try await Task.sleep(for: wait)
      } catch {
        return
      }
    }
  }
}
