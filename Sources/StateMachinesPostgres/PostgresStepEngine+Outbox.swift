// Outbox delivery on PostgreSQL (Persistence §8): messages are claimed by a lease in one
// `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING`, handed to their handlers
// outside any transaction, then deleted, or put back after a backoff, or parked (P16). A process
// that dies mid-handler lets the lease expire, and the message is delivered again: at least once.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

extension PostgresStepEngine {
  /// Registers the handler of an outbox topic.
  func handle(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    outbox.handle(topic, handler)
  }

  /// Delivers up to `limit` due messages; returns how many were delivered.
  func deliverOutbox(limit: Int) async throws(StateMachineStoreError) -> Int {
    var claim = PostgresStatement()
    let time = self.now(&claim)
    claim.sql = """
      UPDATE sm_outbox SET available_at = \(plus(time, configuration.lease, &claim)), attempts = attempts + 1
       WHERE id IN (SELECT id FROM sm_outbox WHERE machine = \(claim.bind(table.machine)) AND NOT parked
         AND available_at <= \(time) ORDER BY id LIMIT \(claim.bind(max(0, limit))) FOR UPDATE SKIP LOCKED)
      RETURNING id, entity_id, version, topic, payload::text, attempts
      """
    // Through `read`: a pooled connection the server ended is skipped (a claim that ran extends
    // leases only; the messages come again, at least once, P16).
    let claiming = claim
    let rows = try await read("") { connection throws(StateMachineStoreError) in try await run(connection, claiming, key: "") }
    let claimed = try PostgresStoreFailure.sync("") { try rows.map(Self.message).sorted { $0.id < $1.id } }
    return try await outbox.deliver(claimed) { message, failure async throws(StateMachineStoreError) in
      var done = PostgresStatement()
      if let failure {
        let retryAt = plus(self.now(&done), configuration.backoff, &done)
        done.sql = """
          UPDATE sm_outbox SET last_error = \(done.bind(failure)), available_at = \(retryAt),
            parked = (attempts >= \(done.bind(configuration.maxAttempts))) WHERE id = \(done.bind(message.id))
          """
      } else {
        done.sql = "DELETE FROM sm_outbox WHERE id = \(done.bind(message.id))"
      }
      let statement = done
      _ = try await read(message.entityID) { connection throws(StateMachineStoreError) in
        try await run(connection, statement, key: message.entityID)
      }
    }
  }

  /// A message from a row of `id, entity_id, version, topic, payload::text, attempts`.
  static func message(_ row: PostgresRow) throws -> OutboxMessage {
    let (id, entity, version, topic, payload, attempts) = try row.decode((Int64, String, Int64, String, String, Int).self)
    return OutboxMessage(
      id: id, entityID: entity, version: version, topic: topic, payload: Data(payload.utf8), attempts: attempts)
  }
}
#endif
