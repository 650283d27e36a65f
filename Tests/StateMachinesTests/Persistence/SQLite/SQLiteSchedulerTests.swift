// The SQLite scheduler never stops silently (Persistence §7): with the database file locked by
// another connection, its passes fail, are counted and logged, and it backs off; once the lock is
// gone it resumes and fires every due deadline exactly once.

#if SQLite
import Foundation
import GRDB
import Logging
@_spi(Testing) import StateMachines
import StateMachinesSQLite
import Testing

/// A write transaction (`BEGIN IMMEDIATE`) held open on its own thread, as another process's
/// connection would hold it, until ``release()``. (GRDB ends every access with its transaction
/// closed, so the access itself waits on the thread.)
final class HeldWriteLock: @unchecked Sendable {
  private let lock = NSLock()
  private var held = false
  private let released = DispatchSemaphore(value: 0)

  init(_ queue: DatabaseQueue) {
    Thread {
      try? queue.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN IMMEDIATE")
        self.lock.withLock { self.held = true }
        self.released.wait()
        try db.execute(sql: "COMMIT")
      }
    }.start()
  }

  var isHeld: Bool { lock.withLock { held } }

  func release() { released.signal() }
}

@Suite("SQLite scheduler under faults (Persistence §7)", .timeLimit(.minutes(1)))
struct SQLiteSchedulerTests {
  @Test("a locked database file: failed passes counted and logged, backoff, then every due deadline fired once")
  func schedulerSurvivesALockedFile() async throws {
    let clock = ManualStoreClock()
    let factory = SQLiteStoreFactory()
    let setup = try await factory.makeStore(StoreOrder.self, clock: .manual(clock), outbox: [])
    let ids = (0..<3).map { _ in StoreTestIDs.next() }
    for id in ids { try await setup.insert(StoreOrder(id: id)) }
    clock.advance(by: .seconds(3600))  // every payment deadline is due

    // The scheduler's own connections do not wait for a lock: each locked pass fails at once.
    var configuration = Configuration()
    configuration.busyMode = .immediateError
    let impatient = try DatabasePool(path: factory.pool.path, configuration: configuration)
    let orders = SQLiteStateMachineStore<StoreOrder>(impatient, clock: .manual(clock))
    // Another connection holds the write lock, on a thread of its own, until released.
    let locker = try DatabaseQueue(path: factory.pool.path)
    let lock = HeldWriteLock(locker)
    while !lock.isHeld { try await Task.sleep(for: .milliseconds(5)) }

    let log = RecordingLogHandler()
    let counters = StoreSchedulerCounters()
    let scheduler = Task {
      await orders.runScheduler(
        logger: Logger(label: "scheduler") { _ in log }, poll: .milliseconds(10), maxBackoff: .milliseconds(40),
        counters: counters)
    }
    while counters.snapshot.failedPasses < 4 { try await Task.sleep(for: .milliseconds(5)) }
    let locked = counters.snapshot
    #expect(locked.fired == 0 && locked.consecutiveFailures >= 4 && locked.lastError != nil)
    #expect(log.messages.count >= 4)
    #expect(log.messages.allSatisfy { $0.hasPrefix("error: state machine scheduler pass failed") })
    for id in ids { #expect(try await orders.history(of: id).isEmpty) }

    // The lock goes: the scheduler resumes by itself.
    lock.release()
    while counters.snapshot.fired < ids.count { try await Task.sleep(for: .milliseconds(5)) }
    try await Task.sleep(for: .milliseconds(100))  // more passes: nothing fires twice (P10)
    scheduler.cancel()
    await scheduler.value
    let after = counters.snapshot
    #expect(after.fired == ids.count && after.consecutiveFailures == 0 && after.failedPasses >= 4)
    #expect(after.oldestDueDeadlineAge == nil && after.parkedDeadlines == 0 && after.parkedMessages == 0)
    for id in ids {
      #expect(try await orders.history(of: id).map(\.cause) == [.timeout])
      #expect(try await orders.load(id)?.state == "cancelled")
    }
  }
}
#endif
