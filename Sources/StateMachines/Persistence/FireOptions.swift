import Foundation

/// How a store fires an event.
public struct FireOptions: Sendable, Hashable {
  /// Whether a fire waits for a row another writer holds.
  public enum LockMode: Sendable, Hashable {
    /// Wait for the row, then evaluate the event against its new state (P3).
    case wait
    /// Fail with ``StateMachineStoreError/locked(id:)`` instead of waiting.
    case noWait
  }

  /// What a fire on a stale object does (P4).
  public enum Retry: Sendable, Hashable {
    /// Fail with ``StateMachineStoreError/conflict(id:expectedVersion:currentVersion:currentState:)``.
    case none
    /// Reload the row and run the step again on it, at most `max` times, then report the conflict.
    case reload(max: Int)
  }

  /// Makes a retried fire safe (P6): stored with the step's history, and a fire with a request
  /// id already recorded for the same row and event returns that step's outcome again.
  public var requestID: UUID?
  /// Whether to wait for a locked row.
  public var lock: LockMode
  /// What a fire on a stale object does.
  public var retry: Retry
  /// For a fire by id: the version the row must still be at, as a compare-and-set (P4); a row
  /// that moved on gives ``StateMachineStoreError/conflict(id:expectedVersion:currentVersion:currentState:)``
  /// (or, with ``Retry/reload(max:)``, another try on the row as it now is). `nil`: any version.
  /// The generated store methods fire so, at the version their object holds.
  public var expectedVersion: Int64?

  /// Options; by default a fire waits for the row, at any version, and does not retry.
  public init(requestID: UUID? = nil, lock: LockMode = .wait, retry: Retry = .none, expectedVersion: Int64? = nil) {
    self.requestID = requestID
    self.lock = lock
    self.retry = retry
    self.expectedVersion = expectedVersion
  }
}

/// What a successful fire returns.
public struct Fired<Model> {
  /// The object as committed: freshly loaded, the step applied.
  public let model: Model
  /// The state before the step.
  public let from: String
  /// The state after the step.
  public let to: String
  /// The row's version after the step.
  public let version: Int64
  /// The step's microsteps, one history row each.
  public let transitions: [CompletedTransition]
  /// Whether this is the recorded outcome of an earlier fire with the same request id (P6):
  /// nothing was run or written this time.
  public let replayed: Bool

  /// Creates the outcome of a fire.
  public init(
    model: Model, from: String, to: String, version: Int64, transitions: [CompletedTransition], replayed: Bool = false
  ) {
    self.model = model
    self.from = from
    self.to = to
    self.version = version
    self.transitions = transitions
    self.replayed = replayed
  }
}

/// A fire's outcome crosses tasks as its model does: it is `Sendable` when the model is.
extension Fired: Sendable where Model: Sendable {}
