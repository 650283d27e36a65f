// What happens to an invocation's result that nothing handles (Invoke I14): it has no
// caller, so it goes to the definition's log (standard error without one), never a crash. A
// result that no transition names is still judged stale or not when the machine is free (I7).

/// The event index a failure is delivered with when no transition names its
/// `error.invoke.<id>`: it is logged as unhandled (I14). Event indices are never negative.
let unnamedFailure: Int32 = -2

extension StateMachineDefinition {
  /// Logs an `error.invoke.<id>` that no transition took (I14), with the invocation's
  /// `id#generation`, whatever the verbosity: a failure nobody handles must not pass unseen.
  func logUnhandledFailure(_ id: String, _ generation: UInt64, _ error: (any Sendable)?) {
    (compiled.log ?? .standardError).write(
      "[\(Model.self)] unhandled '\(InvocationEvents.error(id))' of '\(id)#\(generation)': no transition took it; "
        + "error: \(error.map { "\($0)" } ?? "nil")")
  }

  /// After a result's run (I14): a throw in the done or error transition's callbacks (or the
  /// run's step limit) goes to the log, as does a failure that no transition took. A result
  /// dropped because its state was left while it waited for the machine is neither (I7).
  func logResultOutcome(
    _ outcome: StepOutcome, _ event: Int32, _ id: String, _ generation: UInt64, _ payload: (any Sendable)?,
    _ model: Model, armedIn: ArmedState
  ) {
    switch outcome {
    case .failed(let error, _):
      (compiled.log ?? .standardError).write(
        "[\(Model.self)] '\(eventName(event))' of '\(id)#\(generation)' failed: \(error)")
    case .rejected:
      guard event == failureEvent(of: id), locked(model, { armedIn.isCurrent(in: model._$stateMachineStorage) }) else {
        return
      }
      logUnhandledFailure(id, generation, payload)
    case .accepted, .queued:
      break
    }
  }

  /// Whether `armedIn` is still current once the machine is free: a result that no transition
  /// names runs no step, but like any result it is judged when the machine would take it (I7),
  /// not while a step that may leave its state still runs.
  func isCurrentOnceFree(_ model: Model, _ armedIn: ArmedState) -> Bool {
    let admission = RunLoop.admit(self, model) {}
    let current = locked(model) { armedIn.isCurrent(in: model._$stateMachineStorage) }
    if case .taken = admission { _ = RunLoop.endRun(self, model, event: -1) }
    return current
  }

  /// The index of `error.invoke.<id>`, if a transition names it.
  private func failureEvent(of id: String) -> Int32? {
    compiled.invocations.first { $0.id == id }.map(\.errorEvent).flatMap { $0 >= 0 ? $0 : nil }
  }
}
