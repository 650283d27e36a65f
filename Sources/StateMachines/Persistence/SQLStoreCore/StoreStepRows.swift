// The rows a SQL store writes beside the entity row for one step, worked out once for every
// database: each adapter turns them into its own statements.

import Foundation

/// The rows one step adds or removes beside its entity row: one history row per microstep,
/// numbered from the version the step read (P2); the deadlines of the exited states, removed, and
/// those the entered states armed (P8); the outbox messages (P16).
package struct StoreStepRows: Sendable {
  /// One history row: a microstep at its version, with its payload as JSON text.
  package struct History: Sendable {
    package let version: Int64
    package let event: String
    package let from: String
    package let to: String
    /// The payload as JSON, when it is `Encodable`; `nil` otherwise.
    package let payload: String?
  }

  /// The history rows; none when the configuration keeps no history.
  package let history: [History]
  /// The states whose deadline rows the step deletes (exited, or left and entered again).
  package let exited: [String]
  /// The deadlines the step armed, due `delay` after the step on the store's clock.
  package let armed: [ArmedTimeout]
  /// The outbox messages, each at its microstep's version.
  package let messages: [OutboxMessage]

  /// The rows of `step` on `model`, the row `key`. Throws `.callbackFailed` for an outbox rule
  /// whose `make` threw (P16) and `.database` for a payload that failed to encode; either way
  /// before anything is written.
  package init<Model>(
    _ step: StoreStep, model: Model, key: String, configuration: StoreConfiguration<Model>
  ) throws(StateMachineStoreError) {
    self.history = configuration.history ? try Self.history(of: step) : []
    self.exited = step.exited
    self.armed = step.armed
    self.messages = try configuration.outboxMessages(for: step, model: model, key: key)
  }

  /// The history rows of `step` alone (a fast path writes no other row), whatever the
  /// configuration says: the caller checks ``StoreConfiguration/history``.
  package static func history(of step: StoreStep) throws(StateMachineStoreError) -> [History] {
    var version = step.before.version
    var rows: [History] = []
    rows.reserveCapacity(step.transitions.count)
    for transition in step.transitions {
      version += 1
      let payload: String?
      do {
        payload = try (transition.payload as? any Encodable).map {
          String(decoding: try JSONEncoder().encode($0), as: UTF8.self)
        }
      } catch {
        throw .database(error)
      }
      rows.append(History(version: version, event: transition.event, from: transition.from, to: transition.to, payload: payload))
    }
    return rows
  }
}
