// The outbox messages of one step, made the same way by every store (P16).

import Foundation

extension StoreConfiguration {
  /// The messages the outbox rules make for `step`'s transitions on `model`, the row `key`, each
  /// at its microstep's version; made before anything is written, so a `make` that throws rolls
  /// the step back (P16).
  package func outboxMessages(for step: StoreStep, model: Model, key: String) throws(StateMachineStoreError)
    -> [OutboxMessage]
  {
    var messages: [OutboxMessage] = []
    var version = step.before.version
    for transition in step.transitions {
      version += 1
      for rule in outboxRules where rule.event == transition.event {
        do {
          let payload = try JSONEncoder().encode(try rule.make(model, transition))
          messages.append(OutboxMessage(id: 0, entityID: key, version: version, topic: rule.topic, payload: payload))
        } catch {
          throw .callbackFailed(event: transition.event, underlying: error)
        }
      }
    }
    return messages
  }
}
