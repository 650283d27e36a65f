// Firing from any context: `await object.send("event")` hops to the object's actor or
// waits for its lock, so a nonisolated async caller needs no hop of its own.

extension StateMachineObject {
  /// Fires `event` from any context: on the object's global actor if its class is isolated to
  /// one, else at once (taking the object's lock if it has one; a class with neither must be
  /// used from one context at a time, as `fire`). An unknown name is rejected. The macro gives
  /// an actor-isolated class a member of its own, isolated, so that any context can `await` it.
  /// `source` is what inspection records say of the event: an inspector passes
  /// ``InspectionSource/inspector``.
  public func send(
    _ event: String, payload: (any Sendable)? = nil, source: InspectionSource = .api
  ) async -> FireOutcome {
    let definition = stateMachineDefinition
    let model = _$stateMachineModel
    let send = ObjectSend { definition.send(event, payload: payload, source: source, on: model) }
    guard let actor = _$stateMachineActor else { return send.fire() }
    return await runIsolated(on: actor) { send.fire() }
  }
}

/// The firing of ``StateMachineObject/send(_:payload:source:)``, carried to the object's actor without
/// its type (as `TriggerDelivery`).
///
/// `@unchecked Sendable`: `fire` runs on the object's actor when it has one, and otherwise in
/// the caller's context, which owns the object as for `fire`.
private final class ObjectSend: @unchecked Sendable {
  let fire: () -> FireOutcome
  init(_ fire: @escaping () -> FireOutcome) { self.fire = fire }
}

