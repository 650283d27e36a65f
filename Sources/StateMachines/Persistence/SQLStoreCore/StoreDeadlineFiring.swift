// What a SQL store's scheduler does with one consumed deadline (Persistence §7), the same for
// every database: the adapters hold the transaction, the savepoint and the SQL around it.

/// The decisions of a scheduler pass about one deadline it consumed: the step the deadline's event
/// takes (P10, P11), and what becomes of a deadline whose step failed (P11, P12).
package enum StoreDeadlineFiring {
  /// The outcome of one consumed deadline: the step it wrote, or `nil` when the machine refused it.
  package struct Consumed<Model: StateMachineObject>: Sendable {
    package let written: StoreWrittenStep<Model>?

    package init(written: StoreWrittenStep<Model>?) {
      self.written = written
    }
  }

  /// The step `event` takes on the object `load` makes from the row, or `nil` when the machine
  /// refuses it (guards false, or any refusal: the deadline is consumed and nothing happens, P11).
  /// An event the definition no longer has throws `.rejected(.unknownEvent)`, so that the deadline
  /// is parked, not dropped (P12).
  package static func step<Model>(
    _ definition: StateMachineDefinition<Model>, _ event: String,
    on load: () throws(StateMachineStoreError) -> Model
  ) throws(StateMachineStoreError) -> (StoreStep, Model)? {
    guard definition.hasEvent(event) else { throw .rejected(.unknownEvent(event)) }
    let model = try load()
    do {
      return (try definition.storeStep(event, payload: nil, on: model), model)
    } catch {
      if case .rejected = error { return nil }
      throw error
    }
  }

  /// Whether a deadline whose step threw `error` is parked at once (its row cannot be loaded, or
  /// its event is gone: P12) rather than retried after the backoff until it has failed
  /// ``StoreConfiguration/maxAttempts`` times (P11). Rethrows an error that is not the deadline's
  /// (the database's): the whole pass fails, and the deadline stays due.
  package static func parksAtOnce(after error: StateMachineStoreError) throws(StateMachineStoreError) -> Bool {
    switch error {
    case .unknownStoredState, .rejected: return true
    case .callbackFailed: return false
    default: throw error
    }
  }
}
