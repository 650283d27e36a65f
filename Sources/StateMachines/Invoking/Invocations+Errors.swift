// What happens to an invocation's result that nothing handles (Invoke I14): it has no
// caller, so it goes to the definition's log (standard error without one), never a crash. A
// result that no transition names is still judged stale or not when the machine is free (I7).

/// The event index a failure is delivered with when no transition names its
/// `error.invoke.<id>`: it is logged as unhandled (I14). Event indices are never negative.
let unnamedFailure: Int32 = -2

extension Invocations {
  /// Logs an `error.invoke.<id>` that no transition took (I14), with the invocation's
  /// `id#generation`, whatever the verbosity: a failure nobody handles must not pass unseen.
  static func logUnhandledFailure(_ definition: StateMachineDefinition<Model>, _ id: String, _ generation: UInt64, _ error: (any Sendable)?) {
    (definition.compiled.log ?? .standardError).write(
      "[\(Model.self)] unhandled '\(InvocationEvents.error(id))' of '\(id)#\(generation)': no transition took it; "
        + "error: \(error.map { "\($0)" } ?? "nil")")
  }

  /// After a result's run (I14): a throw in the done or error transition's callbacks (or the
  /// run's step limit) goes to the log, as does a failure that no transition took. A result
  /// dropped because its state was left while it waited for the machine is neither (I7).
  static func logResultOutcome(_ definition: StateMachineDefinition<Model>,
    _ outcome: StepOutcome, _ event: Int32, _ id: String, _ generation: UInt64, _ payload: (any Sendable)?,
    _ model: Model, armedIn: ArmedState
  ) {
    switch outcome {
    case .failed(let error, _):
      (definition.compiled.log ?? .standardError).write(
        "[\(Model.self)] '\(definition.eventName(event))' of '\(id)#\(generation)' failed: \(error)")
    case .rejected:
      guard event == Invocations.failureEvent(definition, of: id), definition.locked(model, { armedIn.isCurrent(in: model._$stateMachineStorage) }) else {
        return
      }
      Invocations.logUnhandledFailure(definition, id, generation, payload)
    case .accepted, .queued:
      break
    }
  }

  /// Whether `armedIn` is still current once the machine is free: a result that no transition
  /// names runs no step, but like any result it is judged when the machine would take it (I7),
  /// not while a step that may leave its state still runs.
  static func isCurrentOnceFree(_ definition: StateMachineDefinition<Model>, _ model: Model, _ armedIn: ArmedState) -> Bool {
    let admission = RunLoop.admit(definition, model) {}
    let current = definition.locked(model) { armedIn.isCurrent(in: model._$stateMachineStorage) }
    if case .taken = admission { _ = RunLoop.endRun(definition, model, event: -1) }
    return current
  }

  /// The index of `error.invoke.<id>`, if a transition names it.
  private static func failureEvent(_ definition: StateMachineDefinition<Model>, of id: String) -> Int32? {
    definition.compiled.invocations.first { $0.id == id }.map(\.errorEvent).flatMap { $0 >= 0 ? $0 : nil }
  }
}
