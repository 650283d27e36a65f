import Foundation

/// How an ``InMemoryStateMachineStore`` behaves beyond the rules every store keeps: its outbox
/// topics (P16) and its limits for deadlines and messages that keep failing (P11).
public struct InMemoryStoreConfiguration<Model: StoreManagedStateMachine>: Sendable {
  /// One outbox rule: each microstep on `event` writes a message on `topic`.
  struct OutboxRule: Sendable {
    let event: String
    let topic: String
    let make: @Sendable (Model, CompletedTransition) throws -> any Encodable & Sendable
  }

  var outboxRules: [OutboxRule] = []
  /// Failed attempts after which a deadline or message is parked (P11, P16).
  public var maxAttempts = 5
  /// How long after a failed attempt a deadline or message is due again.
  public var backoff: Duration = .seconds(1)
  /// How long a claimed outbox message stays invisible to other deliveries (PERSISTENCE.md §8).
  public var lease: Duration = .seconds(30)

  /// A configuration without outbox topics.
  public init() {}

  /// Every microstep on `event` writes a message on `topic`, made by `make` from the object and
  /// the transition, in the step's transaction (P16). A `make` that throws rolls the step back.
  public mutating func outbox(
    after event: String, topic: String,
    _ make: @escaping @Sendable (Model, CompletedTransition) throws -> any Encodable & Sendable
  ) {
    outboxRules.append(OutboxRule(event: event, topic: topic, make: make))
  }
}

extension Duration {
  /// The duration in seconds, for `Date` arithmetic.
  var storeSeconds: TimeInterval {
    TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
  }
}
