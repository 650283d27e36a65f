// How one run-to-completion step ended: what the steps return to the entry points.

/// How one run-to-completion step ended.
///
/// The error of a rejection or a failure is boxed (`indirect`), so the outcome is one word and a
/// tag, returned in registers through every layer of the step; unboxed, the error would be
/// written and copied through memory on every accepted event too. A rejection by the full step
/// pays one allocation instead (Benchmarks/README.md, "Step outcome boxed").
@usableFromInline
enum StepOutcome {
  /// The transition happened.
  case accepted
  /// The machine was busy: the event waits in its queue and runs before the machine is idle.
  case queued
  /// Nothing changed.
  indirect case rejected(StateMachineError)
  /// A callback threw (or the run to completion hit its step limit); `transitionHappened` says
  /// whether the state had been written.
  indirect case failed(StateMachineError, transitionHappened: Bool)

  /// The `Bool` an event method returns.
  @inlinable var happened: Bool {
    switch self {
    case .accepted, .queued: return true
    case .rejected: return false
    case .failed(_, let transitionHappened): return transitionHappened
    }
  }
}
