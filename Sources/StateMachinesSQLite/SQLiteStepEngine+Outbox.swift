// Outbox delivery on SQLite (Persistence §8): messages are claimed by a lease in a short
// `BEGIN IMMEDIATE` transaction, handed to their handlers outside any transaction, then deleted,
// or put back after a backoff, or parked (P16). A process that dies mid-handler lets the lease
// expire, and the message is delivered again: at least once.

#if SQLite
import Foundation
import GRDB
import StateMachines

extension SQLiteStepEngine {
  /// Registers the handler of an outbox topic.
  func handle(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    outbox.handle(topic, handler)
  }

  /// Delivers up to `limit` due messages; returns how many were delivered.
  func deliverOutbox(limit: Int) async throws(StateMachineStoreError) -> Int {
    let now = clock.now
    let leaseEnd = (now + configuration.lease.storeSeconds).storeMilliseconds
    let claimed = try await transaction(key: "") { db throws(StateMachineStoreError) -> [OutboxMessage] in
      try SQLiteStoreFailure.database("") {
        try Row.fetchAll(
          db,
          sql: """
            UPDATE sm_outbox SET available_at = ?, attempts = attempts + 1 WHERE id IN (SELECT id FROM sm_outbox
              WHERE machine = ? AND parked = 0 AND available_at <= ? ORDER BY id LIMIT ?)
            RETURNING id, entity_id, version, topic, payload, attempts
            """,
          arguments: [leaseEnd, self.table.machine, now.storeMilliseconds, max(0, limit)]
        ).map(Self.message).sorted { $0.id < $1.id }
      }
    }
    return try await outbox.deliver(claimed) { message, failure async throws(StateMachineStoreError) in
      let retryAt = (clock.now + configuration.backoff.storeSeconds).storeMilliseconds
      let maxAttempts = configuration.maxAttempts
      try await transaction(key: message.entityID) { db throws(StateMachineStoreError) in
        try SQLiteStoreFailure.database(message.entityID) {
          if let failure {
            try db.execute(
              sql: "UPDATE sm_outbox SET last_error = ?, available_at = ?, parked = (attempts >= ?) WHERE id = ?",
              arguments: [failure, retryAt, maxAttempts, message.id])
          } else {
            try db.execute(sql: "DELETE FROM sm_outbox WHERE id = ?", arguments: [message.id])
          }
        }
      }
    }
  }
}
#endif
