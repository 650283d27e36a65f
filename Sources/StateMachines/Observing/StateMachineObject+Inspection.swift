// An object's inspection records (Inspecting B.3): what a live inspector reads.

extension StateMachineObject {
  /// The object's inspection records, for a live inspector: first a ``InspectionRecord/Kind/snapshot``
  /// of the configuration, state, termination and running invocations, then one record per event
  /// taken up, step that changed something, rejection and invocation change, numbered 1, 2, 3 …
  /// per object. The stream ends when the object goes away.
  ///
  /// The snapshot is made where the object's events run (on its actor, or with the machine taken
  /// under its lock), so that no record is lost or repeated between it and the next step. Called
  /// on the object's actor, the snapshot is made before this returns; from elsewhere, once the
  /// actor runs it. Like a query, it starts a machine that has not started.
  ///
  /// An object nobody inspects pays nothing; while a stream listens, the object takes the full
  /// step and records it (Inspecting B.3). While no one reads, the stream keeps the newest
  /// 4,096 records by default.
  public func inspectionRecords(
    bufferingPolicy: AsyncStream<InspectionRecord>.Continuation.BufferingPolicy = .bufferingNewest(4096),
    isolation: isolated (any Actor)? = #isolation
  ) -> AsyncStream<InspectionRecord> {
    let (stream, continuation) = AsyncStream<InspectionRecord>.makeStream(bufferingPolicy: bufferingPolicy)
    let definition = stateMachineDefinition
    let model = _$stateMachineModel
    let register = ObjectInspection { Inspection.addInspectionStream(definition, continuation, on: model) }
    if let actor = _$stateMachineActor, isolation.map({ ObjectIdentifier($0) != ObjectIdentifier(actor) }) ?? true {
      Task { await runIsolated(on: actor) { register.run() } }
    } else {
      register.run()
    }
    return stream
  }
}

/// The registration of an inspection stream, carried to the object's actor without its type
/// (as `ObjectSend`).
///
/// `@unchecked Sendable`: `run` runs on the object's actor when it has one, and otherwise in the
/// caller's context, which owns the object (or it has a lock).
private final class ObjectInspection: @unchecked Sendable {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}
