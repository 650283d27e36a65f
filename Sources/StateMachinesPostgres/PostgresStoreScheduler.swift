// The store's scheduler as a ServiceLifecycle service (Persistence §4.2, §7, §8): passes of
// `fireDueTimeouts` and `deliverOutbox` until the service group shuts down. Correctness lies in
// the passes (P9, P10, P16), which any number of schedulers in any number of processes may run;
// the loop only decides when: at once after a full batch, else when the earliest pending row is
// due, after a poll interval at the latest, or earlier when a `NOTIFY sm_wakeup` arrives.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import StateMachines

/// Runs a PostgreSQL store's deadlines and outbox until graceful shutdown or cancellation.
///
/// ```swift
/// let orders = PostgresStateMachineStore<Order>(client)
/// try await ServiceGroup(services: [client, orders.scheduler()], logger: logger).run()
/// ```
///
/// With `listen`, one pooled connection `LISTEN`s on ``PostgresNotifications/channel`` so that a
/// step committed by any process wakes the loop early; polling stays the correctness path. A
/// store made with ``PostgresStoreOptions/pgbouncer`` never listens (a transaction-pooling
/// PgBouncer keeps no session for it).
/// A failing pass (the server restarting, say) never ends the loop: it is logged at `error` to
/// the store's `logger`, counted in ``counters``, and tried again after the poll interval, doubled
/// after each further failure in a row up to `maxBackoff`.
public struct PostgresStoreScheduler<Model: PostgresStateMachineRecord>: Service {
  let store: PostgresStateMachineStore<Model>
  /// The longest sleep between two passes.
  public let poll: Duration
  /// The most deadlines, and the most messages, one pass takes.
  public let batch: Int
  /// Whether the loop listens for wake-up notifications.
  public let listen: Bool
  /// The longest wait after failed passes.
  public let maxBackoff: Duration
  /// The longest a pass may take: one that waits longer (for a connection to a server that is
  /// gone) is cancelled and counted as failed.
  public let passTimeout: Duration
  /// What the loop has done: passes, deadlines fired, messages delivered, failed passes.
  public let counters = StoreSchedulerCounters()
  let onListening: (@Sendable () -> Void)?

  /// A scheduler of `store`: passes of up to `batch` deadlines and messages, at least every `poll`.
  public init(
    _ store: PostgresStateMachineStore<Model>, poll: Duration = .seconds(1), batch: Int = 32, listen: Bool = true,
    maxBackoff: Duration = .seconds(30), passTimeout: Duration = .seconds(30)
  ) {
    self.init(
      store, poll: poll, batch: batch, listen: listen, maxBackoff: maxBackoff, passTimeout: passTimeout, onListening: nil)
  }

  /// A scheduler that calls `onListening` each time its `LISTEN` is in place (tests wait for it).
  @_spi(Testing) public init(
    _ store: PostgresStateMachineStore<Model>, poll: Duration, batch: Int, listen: Bool,
    maxBackoff: Duration = .seconds(30), passTimeout: Duration = .seconds(30), onListening: (@Sendable () -> Void)?
  ) {
    self.store = store
    self.poll = poll
    self.batch = max(1, batch)
    self.listen = listen
    self.maxBackoff = maxBackoff
    self.passTimeout = passTimeout
    self.onListening = onListening
  }

  /// Runs passes until the service group shuts down gracefully or the task is cancelled; returns
  /// then, without error.
  public func run() async throws {
    let wakeup = PostgresWakeupSignal()
    await cancelWhenGracefulShutdown {
      await withTaskGroup(of: Void.self) { group in
        // Behind a transaction-pooling pooler a LISTEN holds no session: the loop polls.
        if listen, !store.engine.options.pgbouncer { group.addTask { await listenForWakeups(wakeup) } }
        await loop(wakeup)
        group.cancelAll()
      }
    }
  }

  /// Passes until cancelled.
  private func loop(_ wakeup: PostgresWakeupSignal) async {
    let engine = store.engine
    while !Task.isCancelled {
      var nap = poll
      do {
        let (store, batch, counters) = (store, batch, counters)
        let (full, due) = try await StoreSchedulerCounters.pass(timeout: passTimeout) {
          () throws(StateMachineStoreError) -> (Bool, Duration?) in
          let fired = try await store.fireDueTimeouts(limit: batch)
          counters.fired(fired)
          let delivered = try await store.deliverOutbox(limit: batch)
          counters.delivered(delivered)
          if fired == batch || delivered == batch {
            counters.succeeded()
            return (true, nil)
          }
          counters.backlog(try await engine.schedulerBacklog())
          let due = try await engine.nextDue()
          counters.succeeded()
          return (false, due)
        }
        if full { continue }
        if let due, due < nap { nap = due }
      } catch {
        if Task.isCancelled { return }
        let failures = counters.failed(error)
        nap = StoreSchedulerCounters.backoff(after: failures, poll: poll, maxBackoff: maxBackoff)
        engine.logger.error(
          "state machine scheduler pass failed",
          metadata: ["error": "\(error)", "machine": "\(engine.table.machine)", "failures in a row": "\(failures)"])
      }
      await wakeup.wait(upTo: nap)
    }
  }

  /// Listens on the wake-up channel for the machine's notifications until cancelled; after a
  /// lost connection, listens again after the poll interval (the polls go on meanwhile).
  private func listenForWakeups(_ wakeup: PostgresWakeupSignal) async {
    let engine = store.engine
    let machine = engine.table.machine
    while !Task.isCancelled {
      do {
        try await engine.client.withConnection { connection in
          try await connection.listen(on: PostgresNotifications.channel) { notifications in
            // A notification sent before the LISTEN is missed: one pass covers it.
            wakeup.signal()
            onListening?()
            for try await notification in notifications where notification.payload == machine {
              wakeup.signal()
            }
          }
        }
      } catch {
        if Task.isCancelled { return }
        engine.logger.warning("state machine scheduler LISTEN failed", metadata: ["error": "\(error)"])
      }
      try? await Task.sleep(for: poll)
    }
  }
}

extension PostgresStoreScheduler: CustomStringConvertible {
  /// The service's name in ServiceLifecycle's logs.
  public var description: String { "PostgresStoreScheduler(\(store.engine.table.machine))" }
}

extension PostgresStateMachineStore: Service {
  /// The store's scheduler with its defaults (poll every second, batches of 32, `LISTEN`).
  public func scheduler(
    poll: Duration = .seconds(1), batch: Int = 32, listen: Bool = true, maxBackoff: Duration = .seconds(30),
    passTimeout: Duration = .seconds(30)
  ) -> PostgresStoreScheduler<Model> {
    PostgresStoreScheduler(
      self, poll: poll, batch: batch, listen: listen, maxBackoff: maxBackoff, passTimeout: passTimeout)
  }

  /// Runs ``scheduler(poll:batch:listen:maxBackoff:passTimeout:)`` with its defaults until graceful shutdown, so that the
  /// store itself is a service: `ServiceGroup(services: [client, orders], logger: logger)`.
  public func run() async throws {
    try await scheduler().run()
  }
}

/// Wakes the scheduler's loop early: a signal sent while the loop works is kept for its next wait.
///
/// `@unchecked Sendable`: `pending` and `waiter` are read and written only under `lock`.
final class PostgresWakeupSignal: @unchecked Sendable {
  private let lock = NSLock()
  private var pending = false
  private var waiter: CheckedContinuation<Void, Never>?

  /// Ends the current wait, or the next one.
  func signal() {
    let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      guard let waiter = self.waiter else {
        pending = true
        return nil
      }
      self.waiter = nil
      return waiter
    }
    waiter?.resume()
  }

  /// Returns at a signal, after `timeout`, or when the task is cancelled.
  func wait(upTo timeout: Duration) async {
    let signalled = lock.withLock { () -> Bool in
      defer { pending = false }
      return pending
    }
    if signalled { return }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { try? await Task.sleep(for: timeout) }
      group.addTask { await self.nextSignal() }
      await group.next()
      group.cancelAll()
    }
  }

  private func nextSignal() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = self.lock.withLock { () -> Bool in
          if self.pending || Task.isCancelled {
            self.pending = false
            return true
          }
          self.waiter = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = self.lock.withLock { () -> CheckedContinuation<Void, Never>? in
        defer { self.waiter = nil }
        return self.waiter
      }
      waiter?.resume()
    }
  }
}
#endif
