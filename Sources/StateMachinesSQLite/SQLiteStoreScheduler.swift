// The SQLite store's scheduler loop with the application's Logger (Persistence §7): the generic
// loop of every store, each failed pass logged. It never stops on an error (a locked file, a full
// disk): it backs off and tries again.

#if SQLite
import Logging
import StateMachines

extension SQLiteStateMachineStore {
  /// Fires due deadlines and delivers outbox messages until the task is cancelled, as
  /// `StateMachineStore.runScheduler(poll:batch:maxBackoff:passTimeout:counters:onFailure:)` does, and logs
  /// each failed pass at `error` to `logger`. Read `counters` for metrics and health checks.
  ///
  /// ```swift
  /// let counters = StoreSchedulerCounters()
  /// let scheduler = Task { await orders.runScheduler(logger: logger, counters: counters) }
  /// ```
  public func runScheduler(
    logger: Logger, poll: Duration = .seconds(1), batch: Int = 32, maxBackoff: Duration = .seconds(30),
    passTimeout: Duration = .seconds(30), counters: StoreSchedulerCounters = StoreSchedulerCounters()
  ) async {
    await runScheduler(poll: poll, batch: batch, maxBackoff: maxBackoff, passTimeout: passTimeout, counters: counters) {
      error in
      logger.error(
        "state machine scheduler pass failed",
        metadata: [
          "model": "\(Model.self)", "error": "\(error)",
          "failures in a row": "\(counters.snapshot.consecutiveFailures)",
        ])
    }
  }
}
#endif
