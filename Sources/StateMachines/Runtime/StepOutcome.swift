// How one run-to-completion step ended: what the steps return to the entry points.

/// How one run-to-completion step ended.
@usableFromInline
enum StepOutcome {
  /// The transition happened.
  case accepted
  /// The machine was busy: the event waits in its queue and runs before the machine is idle.
  case queued
  /// Nothing changed.
  case rejected(StateMachineError)
  /// A callback threw (or the run to completion hit its step limit); `transitionHappened` says
  /// whether the state had been written.
  case failed(StateMachineError, transitionHappened: Bool)

  /// The `Bool` an event method returns.
  @inlinable var happened: Bool {
    switch self {
    case .accepted, .queued: return true
    case .rejected: return false
    case .failed(_, let transitionHappened): return transitionHappened
    }
  }
}
