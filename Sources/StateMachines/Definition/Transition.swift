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

  /// Creates a transition description.
  public init(event: String, from: String, to: String, payload: (any Sendable)? = nil) {
    self.event = event
    self.from = from
    self.to = to
    self.payload = payload
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
