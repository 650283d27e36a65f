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

extension StateMachineDefinition {
  /// A rejection: nothing changed. The log says why.
  @inlinable
  func rejected(_ error: StateMachineError) -> StepOutcome {
    trace("rejected: \(error)")
    return .rejected(error)
  }

  /// A failure: a callback of `event` threw `error`, before or after the state was written.
  @inlinable
  func failed(_ event: String, transitionHappened: Bool, _ error: any Error) -> StepOutcome {
    let failure = StateMachineError.callbackFailed(
      event: event, transitionHappened: transitionHappened, underlying: error)
    trace("failed: \(failure)")
    return .failed(failure, transitionHappened: transitionHappened)
  }

  /// The rejection of every event by an invalid definition (out of line: it copies the error).
  @usableFromInline
  func rejectedByDefinition() -> StepOutcome {
    rejected(.invalidDefinition(definitionError!))
  }

  /// The error of a run to completion of `event` that hit the step limit.
  @usableFromInline
  func limitError(_ event: Int32) -> StateMachineError {
    .runToCompletionLimit(event: eventName(event), steps: compiled.maxSteps)
  }
}
