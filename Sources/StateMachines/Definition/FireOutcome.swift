/// How an event sent with ``StateMachineObject/send(_:payload:source:)`` ended: the same answer as
/// `fire`'s `Bool`, with the reason when nothing happened.
public enum FireOutcome: Sendable, CustomStringConvertible {
  /// The transition happened.
  case accepted
  /// The machine was running a step of the sending context: the event waits in its queue and
  /// runs before the machine is idle.
  case queued
  /// Nothing changed, for this reason.
  case rejected(StateMachineError)
  /// A callback threw (or the run to completion hit its step limit); `transitionHappened` says
  /// whether the state had been written.
  case failed(StateMachineError, transitionHappened: Bool)

  /// What `fire` would have returned.
  public var happened: Bool {
    switch self {
    case .accepted, .queued: return true
    case .rejected: return false
    case .failed(_, let transitionHappened): return transitionHappened
    }
  }

  public var description: String {
    switch self {
    case .accepted: return "accepted"
    case .queued: return "queued"
    case .rejected(let error): return "rejected: \(error)"
    case .failed(let error, let happened): return "failed (transition \(happened ? "happened" : "did not happen")): \(error)"
    }
  }

  init(_ outcome: StepOutcome) {
    switch outcome {
    case .accepted: self = .accepted
    case .queued: self = .queued
    case .rejected(let error): self = .rejected(error)
    case .failed(let error, let happened): self = .failed(error, transitionHappened: happened)
    }
  }
}
