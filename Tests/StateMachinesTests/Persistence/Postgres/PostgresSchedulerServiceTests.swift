// The PostgreSQL store's scheduler as a ServiceLifecycle service (Persistence §7, §8): it fires
// due deadlines and delivers outbox messages until graceful shutdown or cancellation; a
// `NOTIFY sm_wakeup` wakes it long before its poll interval; without notifications (behind a
// transaction-pooling PgBouncer) polling alone still fires every due deadline.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL store: the scheduler service, LISTEN/NOTIFY, polling",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresSchedulerServiceTests {
  let factory = PostgresStoreFactory()
  var database: PostgresTestDatabase { factory.database }

  func orders(notifications: PostgresNotifications = .init()) async throws -> PostgresStateMachineStore<StoreOrder> {
    try await database.prepare(StoreOrder.self)
    var configuration = StoreConfiguration<StoreOrder>()
    configuration.outbox(after: "expire", topic: "expired") { order, _ in ["id": order.id] }
    return PostgresStateMachineStore<StoreOrder>(
      database.client, configuration: configuration, notifications: notifications)
  }

  /// Waits until `condition` holds, checking every 20 ms, for at most `limit`; returns whether it held.
  func eventually(within limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
      if try await condition() { return true }
      try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
  }

  @Test("P9, P16: the store as a service fires a due deadline and delivers its message; graceful shutdown stops it")
  func serviceFiresAndDelivers() async throws {
    let orders = try await orders()
    let delivered = Delivered()
    orders.handle("expired") { message in delivered.add(message.entityID) }
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.post("expire", to: id, after: .milliseconds(100))
    let group = ServiceGroup(services: [orders], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    let running = Task { try await group.run() }
    #expect(try await eventually(within: .seconds(10)) { delivered.ids == ["\(id)"] })
    #expect(try await orders.storedState(of: id)?.state == "cancelled")
    #expect(try await orders.history(of: id).map(\.cause) == [.timeout])
    #expect(try await orders.pendingMessages().isEmpty)
    let started = ContinuousClock.now
    await group.triggerGracefulShutdown()
    try await running.value
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test("Persistence §7: a cancelled scheduler (listening, with a long poll) returns promptly")
  func cancellationStops() async throws {
    let orders = try await orders()
    let listening = Flag()
    let scheduler = PostgresStoreScheduler(
      orders, poll: .seconds(60), batch: 32, listen: true, onListening: { listening.set() })
    let running = Task { try await scheduler.run() }
    #expect(try await eventually(within: .seconds(10)) { listening.isSet })
    let started = ContinuousClock.now
    running.cancel()
    try await running.value
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test("Persistence §6, §7: with a 60 s poll, a deadline due soon is fired promptly after its NOTIFY")
  func notifyWakesScheduler() async throws {
    let orders = try await orders()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let listening = Flag()
    let scheduler = PostgresStoreScheduler(
      orders, poll: .seconds(60), batch: 32, listen: true, onListening: { listening.set() })
    let running = Task { try await scheduler.run() }
    defer { running.cancel() }
    #expect(try await eventually(within: .seconds(10)) { listening.isSet })
    // The loop now sleeps for the poll interval (the order's own deadline is an hour away).
    try await Task.sleep(for: .milliseconds(200))
    // Another store object (another application server) posts a deadline due in 300 ms.
    let other = PostgresStateMachineStore<StoreOrder>(database.client)
    let posted = ContinuousClock.now
    try await other.post("expire", to: id, after: .milliseconds(300))
    #expect(try await eventually(within: .seconds(10)) { try await orders.storedState(of: id)?.state == "cancelled" })
    #expect(ContinuousClock.now - posted < .seconds(10))
    #expect(try await orders.history(of: id).map(\.cause) == [.timeout])
  }

  @Test("Persistence §7, P10: without notifications or LISTEN (PgBouncer), polling fires every due deadline exactly once")
  func pollingAlone() async throws {
    let orders = try await orders(notifications: .disabled)
    let ids = (0..<5).map { _ in StoreTestIDs.next() }
    for id in ids {
      try await orders.insert(StoreOrder(id: id))
      try await orders.post("expire", to: id, after: .milliseconds(50))
    }
    let schedulers = (0..<2).map { _ in orders.scheduler(poll: .milliseconds(100), batch: 2, listen: false) }
    let running = schedulers.map { scheduler in Task { try await scheduler.run() } }
    defer { for task in running { task.cancel() } }
    #expect(
      try await eventually(within: .seconds(20)) {
        try await orders.count(in: "cancelled") >= ids.count
      })
    for id in ids {
      #expect(try await orders.history(of: id).map(\.cause) == [.timeout])
      #expect(try await orders.deadlines(of: id).isEmpty)
    }
    for task in running { task.cancel() }
    for task in running { try await task.value }
  }
}

/// Entity ids of delivered messages.
private final class Delivered: @unchecked Sendable {
  private let lock = NSLock()
  private var delivered: [String] = []
  func add(_ id: String) { lock.withLock { delivered.append(id) } }
  var ids: [String] { lock.withLock { delivered } }
}

/// A flag set once.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
#endif
