// What only the in-memory store can show directly: a lost commit (P6, P7), a deadline that keeps
// failing (P11), a fire that may not wait (P3), a stale deadline found by verify (P12).

import Dispatch
import Foundation
@_spi(Testing) import StateMachines
import Testing

@Suite("In-memory store", .timeLimit(.minutes(1)))
struct InMemoryStoreTests {
  @Test("P6, P7: a commit whose outcome is lost is found again by its request id; its after never runs")
  func lostCommitIsReplayedByRequestID() async throws {
    let orders = InMemoryStateMachineStore<StoreOrder>()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let request = UUID()
    orders.loseNextCommitOutcome()
    let error = await storeError { try await orders.fire("pay", on: id, options: FireOptions(requestID: request)) }
    guard case .commitOutcomeUnknown(let lost, _) = error else {
      Issue.record("expected commitOutcomeUnknown, got \(String(describing: error))")
      return
    }
    #expect(lost == request)
    #expect(!StoreMarks.shared.of(id).contains("after pay"))
    let replayed = try await orders.fire("pay", on: id, options: FireOptions(requestID: request))
    #expect(replayed.replayed && replayed.to == "paid" && replayed.version == 1)
    #expect(try await orders.history(of: id).count == 1)
    #expect(!StoreMarks.shared.of(id).contains("after pay"))
  }

  @Test("P11: a timeout whose step throws is rolled back, retried after the backoff, parked after N; verify lists it")
  func failingDeadlineIsRetriedThenParked() async throws {
    let clock = ManualStoreClock()
    var configuration = StoreConfiguration<StoreOrder>()
    configuration.maxAttempts = 3
    configuration.backoff = .seconds(10)
    let orders = InMemoryStateMachineStore<StoreOrder>(clock: .manual(clock), configuration: configuration)
    let id = StoreTestIDs.next()
    let order = StoreOrder(id: id)
    order.failOnEntry = true
    try await orders.insert(order)
    clock.advance(by: .seconds(3600))
    for attempt in 1...3 {
      #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
      let deadline = try #require(try await orders.deadlines(of: id).first)
      #expect(deadline.attempts == attempt)
      #expect(deadline.lastError?.contains("expire") == true)
      #expect(deadline.isParked == (attempt == 3))
      #expect(deadline.dueAt == clock.now + 10)
      #expect(try await orders.load(id)?.state == "awaitingPayment")
      clock.advance(by: .seconds(10))
    }
    clock.advance(by: .seconds(100))
    #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
    #expect(try await orders.history(of: id).isEmpty)
    #expect(try await orders.verify().parkedDeadlines.map(\.entityID) == ["\(id)"])
    // The scheduler's backlog counts it, and a parked deadline is not "due" (P11).
    #expect(try await orders.schedulerBacklog() == StoreBacklog(parkedDeadlines: 1, parkedMessages: 0, oldestDueDeadlineAge: nil))
  }

  @Test("P12: a deadline naming an event the definition no longer has is parked, never fired or dropped")
  func deadlineOfARemovedEventIsParked() async throws {
    let clock = ManualStoreClock()
    let orders = InMemoryStateMachineStore<StoreOrder>(clock: .manual(clock))
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    orders.insertDeadline(
      StoredDeadline(id: 9_999, entityID: "\(id)", state: "awaitingPayment", event: "lapse", armedVersion: 0, dueAt: clock.now))
    #expect(try await orders.fireDueTimeouts(limit: 10) == 0)
    let parked = try #require(try await orders.deadlines(of: id).first { $0.id == 9_999 })
    #expect(parked.isParked && parked.attempts == 1)
    #expect(try await orders.load(id)?.state == "awaitingPayment")
    let report = try await orders.verify()
    #expect(report.parkedDeadlines.map(\.id) == [9_999])
    #expect(report.staleDeadlines.map(\.id) == [9_999])
  }

  @Test("P3: lock: .noWait fails with locked while another fire holds the store; waiting fires succeed")
  func noWaitFailsWhileLocked() async throws {
    let rings = InMemoryStateMachineStore<StoreRing>()
    let held = StoreTestIDs.next()
    let other = StoreTestIDs.next()
    try await rings.insert(StoreRing(id: held))
    try await rings.insert(StoreRing(id: other))
    let gate = StoreGates.shared.close(held)
    let holder = Task.detached { try await rings.fire("advance", on: held) }
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        gate.entered.wait()
        continuation.resume()
      }
    }
    let error = await storeError { try await rings.fire("advance", on: other, options: FireOptions(lock: .noWait)) }
    guard case .locked(let lockedID) = error else {
      Issue.record("expected locked, got \(String(describing: error))")
      gate.open.signal()
      return
    }
    #expect(lockedID == "\(other)")
    gate.open.signal()
    #expect(try await holder.value.to == "s1")
    #expect(try await rings.fire("advance", on: other, options: FireOptions(lock: .noWait)).to == "s1")
  }

  @Test("P12: verify finds a deadline whose state is no longer active and a timed state without one")
  func verifyFindsStaleAndMissingDeadlines() async throws {
    let orders = InMemoryStateMachineStore<StoreOrder>()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    #expect(try await orders.verify().isClean)
    orders.overwrite(id, with: StoredMachineState(state: "paid", version: 0))
    let other = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: other))
    try await orders.fire("pay", on: other)
    orders.overwrite(other, with: StoredMachineState(state: "awaitingPayment", version: 1))
    let report = try await orders.verify()
    #expect(report.staleDeadlines.map(\.entityID) == ["\(id)"])
    #expect(report.missingDeadlines == ["\(other)": ["awaitingPayment"]])
  }
}

@Suite("In-memory store: payloads and the scheduler loop", .timeLimit(.minutes(1)))
struct InMemoryStoreSchedulerTests {
  @Test("History rows keep an Encodable payload as JSON")
  func historyKeepsEncodablePayloads() async throws {
    let orders = InMemoryStateMachineStore<StoreOrder>()
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    try await orders.fire("pay", on: id, payload: ["amount": 1250])
    try await orders.fire("ship", on: id)
    let history = try await orders.history(of: id)
    #expect(history.map { $0.payload.map { String(decoding: $0, as: UTF8.self) } } == [#"{"amount":1250}"#, nil])
  }

  @Test("P9: runScheduler fires a deadline once it is due and delivers its outbox message; cancelling ends it")
  func schedulerLoopFiresAndDelivers() async throws {
    let clock = ManualStoreClock()
    var configuration = StoreConfiguration<StoreOrder>()
    configuration.outbox(after: "expire", topic: "expired") { order, _ in ["order": order.id] }
    let orders = InMemoryStateMachineStore<StoreOrder>(clock: .manual(clock), configuration: configuration)
    let delivered = StoreMarks()
    orders.handle("expired") { message in delivered.append(0, String(decoding: message.payload, as: UTF8.self)) }
    let id = StoreTestIDs.next()
    try await orders.insert(StoreOrder(id: id))
    let counters = StoreSchedulerCounters()
    let scheduler = Task { await orders.runScheduler(poll: .milliseconds(5), counters: counters) }
    try await Task.sleep(for: .milliseconds(30))
    #expect(try await orders.load(id)?.state == "awaitingPayment")
    clock.advance(by: .seconds(3600))
    while delivered.of(0).isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    scheduler.cancel()
    await scheduler.value
    #expect(try await orders.load(id)?.state == "cancelled")
    let snapshot = counters.snapshot
    #expect(snapshot.fired == 1 && snapshot.delivered == 1 && snapshot.passes >= 1)
    #expect(snapshot.failedPasses == 0 && snapshot.consecutiveFailures == 0 && snapshot.lastSuccess != nil)
    #expect(delivered.of(0) == [#"{"order":\#(id)}"#])
    #expect(try await orders.history(of: id).map(\.cause) == [.timeout])
  }

  @Test("Persistence §7: the scheduler's backoff doubles from the poll interval up to its cap")
  func schedulerBackoff() {
    let poll = Duration.milliseconds(100)
    let waits = (1...8).map { StoreSchedulerCounters.backoff(after: $0, poll: poll, maxBackoff: .seconds(2)) }
    #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .seconds(2), .seconds(2), .seconds(2)])
    #expect(StoreSchedulerCounters.backoff(after: 1000, poll: .seconds(5), maxBackoff: .seconds(1)) == .seconds(5))
  }
}
