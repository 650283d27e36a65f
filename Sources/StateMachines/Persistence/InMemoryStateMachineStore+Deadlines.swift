// The in-memory store's scheduler pass (P9–P11), outbox delivery (P16, Persistence §8) and `verify()` (P12).

import Foundation

extension InMemoryStateMachineStore {
  public func fireDueTimeouts(limit: Int) async throws(StateMachineStoreError) -> Int {
    var written: [Written] = []
    var consumed = 0
    lock.locked {
      let now = clock.now
      // P9: every overdue deadline, oldest first; `due_at <= now` on the store's clock (P15).
      let due = deadlineRows.values.filter { !$0.isParked && $0.dueAt <= now }
        .sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }.prefix(max(0, limit))
      for deadline in due {
        // P10: consumed in the firing transaction; gone means a concurrent exit deleted it.
        guard deadlineRows.removeValue(forKey: deadline.id) != nil else { continue }
        do throws(StateMachineStoreError) {
          if let step = try fireTimeout(deadline, now: now) { written.append(step) }
          consumed += 1
        } catch {
          retry(deadline, after: error, now: now)
        }
      }
    }
    for step in written { step.step?.committed() }
    return consumed
  }

  /// Fires one consumed deadline's event; `nil` when the machine refused it (P11: guards false,
  /// consumed, nothing happens). Throws when it must be tried again or parked.
  private func fireTimeout(_ deadline: StoredDeadline, now: Date) throws(StateMachineStoreError) -> Written? {
    guard let row = rows[deadline.entityID] else { return nil }
    // P12: a deadline naming an event the definition no longer has is parked, not dropped.
    guard definition.eventIndex(deadline.event) != nil else {
      throw .rejected(.unknownEvent(deadline.event))
    }
    let model = try fresh(deadline.entityID, row)
    let step: StoreStep
    do {
      step = try definition.storeStep(deadline.event, payload: nil, on: model)
    } catch {
      if case .rejected = error { return nil }
      throw error
    }
    return try write(step, model, deadline.entityID, cause: .timeout, requestID: nil, dueAt: deadline.dueAt)
  }

  /// P11: a deadline whose step threw is put back with one more attempt, due after the backoff,
  /// or parked once it has failed too often; one whose row cannot be loaded (P12) is parked.
  private func retry(_ deadline: StoredDeadline, after error: StateMachineStoreError, now: Date) {
    var deadline = deadline
    deadline.attempts += 1
    deadline.lastError = "\(error)"
    deadline.dueAt = now + configuration.backoff.storeSeconds
    switch error {
    case .unknownStoredState, .rejected: deadline.isParked = true
    default: break
    }
    if deadline.attempts >= configuration.maxAttempts { deadline.isParked = true }
    deadlineRows[deadline.id] = deadline
  }

  public func schedulerBacklog() async throws(StateMachineStoreError) -> StoreBacklog {
    lock.locked {
      let now = clock.now
      let oldest = deadlineRows.values.filter { !$0.isParked && $0.dueAt <= now }.map(\.dueAt).min()
      return StoreBacklog(
        parkedDeadlines: deadlineRows.values.filter(\.isParked).count,
        parkedMessages: outbox.values.filter(\.isParked).count,
        oldestDueDeadlineAge: StoreBacklog.age(dueAt: oldest, now: now))
    }
  }

  public func deliverOutbox(limit: Int) async throws(StateMachineStoreError) -> Int {
    // Persistence §8: claimed by a lease, delivered outside the lock, deleted once handled.
    let claimed: [(OutboxMessage, (@Sendable (OutboxMessage) async throws -> Void)?)] = lock.locked {
      let now = clock.now
      let due = outbox.values.filter { !$0.isParked && $0.availableAt <= now }.sorted { $0.message.id < $1.message.id }
        .prefix(max(0, limit))
      return due.map { pending in
        var claimed = pending
        claimed.message.attempts += 1
        claimed.availableAt = now + configuration.lease.storeSeconds
        outbox[pending.message.id] = claimed
        return (claimed.message, handlers[pending.message.topic])
      }
    }
    var delivered = 0
    for (message, handler) in claimed {
      var failure: String?
      if let handler {
        do { try await handler(message) } catch { failure = "\(error)" }
      } else {
        failure = "no handler for topic '\(message.topic)'"
      }
      lock.locked {
        guard var pending = outbox[message.id] else { return }
        if let failure {
          pending.lastError = failure
          pending.availableAt = clock.now + configuration.backoff.storeSeconds
          pending.isParked = pending.message.attempts >= configuration.maxAttempts
          outbox[message.id] = pending
        } else {
          outbox[message.id] = nil
          delivered += 1
        }
      }
    }
    return delivered
  }

  /// The messages not delivered yet, parked ones included (for tests and tools).
  public func pendingMessages() -> [OutboxMessage] {
    lock.locked { outbox.values.map(\.message).sorted { $0.id < $1.id } }
  }

  public func verify() async throws(StateMachineStoreError) -> StoreReport {
    lock.locked {
      definition.report(
        rows: rows.map { (key: $0.key, state: $0.value.machine.state, isTerminated: $0.value.machine.isTerminated) },
        deadlines: Array(deadlineRows.values), parkedMessages: outbox.values.filter(\.isParked).map(\.message))
    }
  }
}
