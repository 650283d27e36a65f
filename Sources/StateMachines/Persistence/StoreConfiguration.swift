import Foundation

/// How a store behaves beyond the rules every store keeps: its outbox topics (P16), its history
/// rows, and its limits for deadlines and messages that keep failing (P11). One configuration
/// serves every store, so that a test on the in-memory store configures the SQL one the same way.
public struct StoreConfiguration<Model>: Sendable {
  /// One outbox rule: each microstep on `event` writes a message on `topic`.
  package struct OutboxRule: Sendable {
    package let event: String
    package let topic: String
    package let make: @Sendable (Model, CompletedTransition) throws -> any Encodable & Sendable
  }

  package var outboxRules: [OutboxRule] = []
  /// Whether a SQL store writes a history row per transition (on by default: audit, P2, P6).
  /// Off, request ids are not recorded either. The in-memory store always keeps its history.
  public var history = true
  /// Failed attempts after which a deadline or message is parked (P11, P16).
  public var maxAttempts = 5
  /// How long after a failed attempt a deadline or message is due again.
  public var backoff: Duration = .seconds(1)
  /// How long a claimed outbox message stays invisible to other deliveries (Persistence §8).
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
  package var storeSeconds: TimeInterval {
    TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
  }
}
