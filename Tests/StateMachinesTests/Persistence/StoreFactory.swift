// What the conformance suite needs of a store beyond the protocol: making an empty one, and
// changing a row behind its back (P12). The SQLite and PostgreSQL stores provide their own.

import Foundation
@_spi(Testing) import StateMachines

/// Makes stores for the conformance suite.
protocol StoreFactory: Sendable {
  /// An empty store of `Model` rows, with deadlines on `clock`; every microstep on an event of
  /// `outbox` writes a message on the topic named after the event (P16), whose payload is the
  /// transition as `{"from", "to"}`.
  func makeStore<Model: StoreManagedStateMachine & Codable>(
    _ type: Model.Type, clock: StoreClock, outbox: [String]
  ) async throws -> any StateMachineStore<Model>

  /// Registers an outbox handler on a store this factory made.
  func handle<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void)

  /// Sets a row's machine columns without the store, as a hand-written SQL update would (P12).
  func overwrite<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, id: Model.StoreID, with machine: StoredMachineState) async throws
}

/// The in-memory store, the reference.
struct InMemoryStoreFactory: StoreFactory {
  func makeStore<Model: StoreManagedStateMachine & Codable>(
    _ type: Model.Type, clock: StoreClock, outbox: [String]
  ) async throws -> any StateMachineStore<Model> {
    var configuration = StoreConfiguration<Model>()
    for event in outbox {
      configuration.outbox(after: event, topic: event) { _, transition in ["from": transition.from, "to": transition.to] }
    }
    return InMemoryStateMachineStore(Model.stateMachine, clock: clock, configuration: configuration)
  }

  func handle<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void
  ) {
    (store as! InMemoryStateMachineStore<Model>).handle(topic, handler)
  }

  func overwrite<Model: StoreManagedStateMachine & Codable>(
    _ store: any StateMachineStore<Model>, id: Model.StoreID, with machine: StoredMachineState
  ) async throws {
    (store as! InMemoryStateMachineStore<Model>).overwrite(id, with: machine)
  }
}
