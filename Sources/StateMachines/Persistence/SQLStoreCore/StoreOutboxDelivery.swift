// Outbox delivery (Persistence §8), the same for every database: the handlers by topic, and the
// delivery of claimed messages one by one, outside any transaction. The adapters claim the
// messages and record each one's end in SQL of their own.

import Foundation

/// The outbox handlers of a store, by topic, and the delivery of the messages it claimed (P16).
///
/// `@unchecked Sendable`: `handlers` is read and written under `lock` only.
package final class StoreOutboxDelivery: @unchecked Sendable {
  private let lock = NSLock()
  private var handlers: [String: @Sendable (OutboxMessage) async throws -> Void] = [:]

  package init() {}

  /// Registers the handler of `topic`, replacing the one it had.
  package func handle(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    lock.withLock { handlers[topic] = handler }
  }

  /// Hands each of `claimed` to its topic's handler, in order, and calls `finish` with the
  /// message and `nil` when the handler returned, or with why it failed (what it threw, or that
  /// the topic has no handler): the adapter deletes the message, or puts it back after the
  /// backoff or parks it. Returns how many were delivered.
  package func deliver(
    _ claimed: [OutboxMessage],
    finish: (OutboxMessage, _ failure: String?) async throws(StateMachineStoreError) -> Void
  ) async throws(StateMachineStoreError) -> Int {
    var delivered = 0
    for message in claimed {
      var failure: String?
      if let handler = lock.withLock({ handlers[message.topic] }) {
        do { try await handler(message) } catch { failure = "\(error)" }
      } else {
        failure = "no handler for topic '\(message.topic)'"
      }
      try await finish(message, failure)
      if failure == nil { delivered += 1 }
    }
    return delivered
  }
}
