// The part of a persisted row that belongs to the state machine (the columns `state`, `sm_version`,
// `sm_terminated` and `sm_history` of a SQL store).

/// The state-machine columns of a persisted object.
///
/// ``state`` is the string that ``StateMachineObject/state`` and `Codable` use today: a state's
/// name, or for a statechart the active leaves' paths joined by `,` (Hierarchy S1).
/// ``version`` orders the row's transitions: it grows by one per microstep, so a step of `k`
/// microsteps writes `k` history rows numbered `v + 1 … v + k` (P1, P2), and a stale object is
/// recognised by its older version (P4).
public struct StoredMachineState: Sendable, Hashable, Codable {
  /// The current state, as ``StateMachineObject/state`` reports it.
  public var state: String
  /// The number of microsteps the row has taken since it was inserted (version 0).
  public var version: Int64
  /// Whether the machine has terminated (a final state, or `die`); a terminated row rejects
  /// every event.
  public var isTerminated: Bool
  /// A statechart's history records by the history state's path (Hierarchy S15); `nil`
  /// when none was recorded.
  public var history: [String: [String]]?

  /// Creates the machine columns of a row.
  public init(state: String, version: Int64 = 0, isTerminated: Bool = false, history: [String: [String]]? = nil) {
    self.state = state
    self.version = version
    self.isTerminated = isTerminated
    self.history = history
  }
}

/// A deadline that a store step armed (P8): entering ``state`` started a timeout that fires
/// ``event`` after ``delay``. The store writes it as a deadline row due at its clock's now plus
/// ``delay``, in the step's transaction.
public struct ArmedTimeout: Sendable, Hashable {
  /// The state whose entry armed it; the deadline is deleted when this state is exited.
  public let state: String
  /// The event the timeout fires.
  public let event: String
  /// How long after the step's commit it is due.
  public let delay: Duration

  /// Creates an armed timeout.
  public init(state: String, event: String, delay: Duration) {
    self.state = state
    self.event = event
    self.delay = delay
  }
}
