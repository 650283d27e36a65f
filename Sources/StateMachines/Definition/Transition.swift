/// What a callback, guard or action learns about the transition it runs in.
public struct Transition {
  /// The event that was fired.
  public let event: String
  /// The state the machine was in when the event was fired.
  public let from: String
  /// The state the transition leads to.
  public let to: String
  /// The value fired with the event (`fire("x", payload:)` or a generated `x(with:)`), if any.
  public let payload: (any Sendable)?
  /// The path of the state that declares the transition (HIERARCHY.md §3); in a flat machine,
  /// the state the machine was in. `(root)` for a wildcard or the machine's start.
  public var source: String { explicitSource ?? from }
  /// The source when it is not `from` (kept apart so that a flat step copies no more names).
  private let explicitSource: String?
  /// The paths of the transition's targets; empty for a targetless (internal) transition. A
  /// guard sees them before a junction chose its path.
  public var targets: [String] { explicitTargets ?? [to] }
  /// The targets when they are not just `to` (kept apart so that a flat step allocates no array).
  private let explicitTargets: [String]?
  /// How the transition treats its source (S10).
  public let kind: TransitionKind

  /// Creates a transition description. `source` defaults to `from`, `targets` to `[to]`.
  public init(
    event: String, from: String, to: String, payload: (any Sendable)? = nil, source: String? = nil,
    targets: [String]? = nil, kind: TransitionKind = .external
  ) {
    self.event = event
    self.from = from
    self.to = to
    self.payload = payload
    explicitSource = source
    explicitTargets = targets
    self.kind = kind
  }

  /// The payload as `T`, or `nil` if there is none or it has another type.
  public func payload<T>(as type: T.Type = T.self) -> T? {
    payload as? T
  }
}

/// What an entry action may ask for once its state is entered (as Stately's `StateChange`):
/// processed as the next run-to-completion step.
public enum NextStep {
  /// Fire this event next, with an optional payload.
  case fire(String, payload: (any Sendable)? = nil)
}
