// The records an inspected object makes (Inspecting B.4): `.event` when an event is taken up,
// `.step` or `.rejected` when its run ends, `.invoke` when an invocation changes. Called only when
// a stream listens (`listeningInspection(of:)`), so none of this runs for an object nobody
// inspects.

import Foundation

extension Inspection {
  /// Records a rejection of an event that was never taken up (an unknown name, a stale trigger):
  /// `.rejected` with the reason, and no `.event` before it.
  static func recordRejection(_ definition: StateMachineDefinition<Model>,
    _ event: String, source: InspectionSource?, payload: (any Sendable)?, _ error: StateMachineError, _ model: Model,
    _ inspection: InspectionStreams
  ) {
    let situation = Inspection.inspectionSituation(definition, of: model)
    inspection.record { sequence in
      InspectionRecord(
        sequence: sequence, kind: .rejected, event: event, source: source, payload: payload,
        configuration: situation.configuration, state: situation.state, terminated: situation.terminated,
        reason: error.description)
    }
  }

  /// Records a rejection before the event was taken up, when a stream listens (out of line: the
  /// inlinable run to completion only calls it on its rare rejection paths).
  @usableFromInline @inline(never)
  static func noteRejection(_ definition: StateMachineDefinition<Model>, _ event: Int32, source: InspectionSource, payload: (any Sendable)?, _ error: StateMachineError, _ model: Model) {
    guard let inspection = Inspection.listeningInspection(definition, of: model) else { return }
    Inspection.recordRejection(definition, definition.eventName(event), source: source, payload: payload, error, model, inspection)
  }

  /// Begins an inspected run, if a stream listens to `inspection`: records `.event` for `event`
  /// (none for -1, a start) and starts capturing what the run does in the object's extras.
  /// Returns the streams to pass to ``endInspectedRun(_:source:payload:_:_:_:)``, or `nil`.
  @usableFromInline @inline(never)
  static func beginInspectedRun(_ definition: StateMachineDefinition<Model>,
    _ event: Int32, source: InspectionSource, payload: (any Sendable)?, _ model: Model
  ) -> InspectionStreams? {
    guard let inspection = Inspection.listeningInspection(definition, of: model) else { return nil }
    if event >= 0 {
      let situation = Inspection.inspectionSituation(definition, of: model)
      inspection.record { sequence in
        InspectionRecord(
          sequence: sequence, kind: .event, event: definition.eventName(event), source: source, payload: payload,
          configuration: situation.configuration, state: situation.state, terminated: situation.terminated)
      }
    }
    Triggers.extras(definition, of: model).capture = StepCapture()
    return inspection
  }

  /// Ends a run begun by ``beginInspectedRun(_:source:payload:_:)``: `.rejected` with the
  /// reason when it changed nothing, else `.step` with what it exited, entered and took, the
  /// configuration afterwards and its duration (and the error of a callback that threw after
  /// the state changed). A start (`event` -1) that entered nothing records nothing.
  @usableFromInline @inline(never)
  static func endInspectedRun(_ definition: StateMachineDefinition<Model>,
    _ event: Int32, source: InspectionSource, payload: (any Sendable)?, _ outcome: StepOutcome, _ model: Model,
    _ inspection: InspectionStreams
  ) {
    let extras = Triggers.extras(definition, of: model)
    let capture = extras.capture ?? StepCapture()
    extras.capture = nil
    let duration = ContinuousClock.now - capture.started
    let situation = Inspection.inspectionSituation(definition, of: model)
    let name = event >= 0 ? definition.eventName(event) : nil
    let step: (source: InspectionSource?, payload: (any Sendable)?) = event >= 0 ? (source, payload) : (nil, nil)
    var reason: String?
    switch outcome {
    case .accepted, .queued: break
    case .rejected(let error), .failed(let error, false):
      guard capture.isEmpty else {
        reason = error.description
        break
      }
      inspection.record { sequence in
        InspectionRecord(
          sequence: sequence, kind: .rejected, event: name, source: step.source, payload: step.payload,
          configuration: situation.configuration, state: situation.state, terminated: situation.terminated,
          reason: error.description, duration: duration)
      }
      return
    case .failed(let error, true): reason = error.description
    }
    if event < 0 && capture.isEmpty && reason == nil { return }
    let paths = { (states: [Int32]) in states.map { definition.stateName($0) } }
    inspection.record { sequence in
      InspectionRecord(
        sequence: sequence, kind: .step, event: name, source: step.source, payload: step.payload,
        exited: paths(capture.exited), entered: paths(capture.entered), transitions: capture.transitions,
        configuration: situation.configuration, state: situation.state, terminated: situation.terminated,
        reason: reason, duration: duration)
    }
  }

  /// Notes a flat transition, candidate `selected` from `from` to `to`, in an inspected run.
  @usableFromInline @inline(never)
  static func noteFlat(_ definition: StateMachineDefinition<Model>, _ selected: Int, from: Int32, to: Int32, external: Bool, _ capture: StepCapture) {
    let declared = Int(definition.compiled.candidateDeclarations[selected])
    capture.noteFlat(from: from, to: to, external: external, edge: DiagramWriter.flatEdgeIndex(definition, declared: declared, from: from))
  }

  /// Records a change made outside any event's run (`restoreState`, `stopStateMachine`) as a
  /// `.step` without an event, when a stream listens: what was left and what is active now.
  static func recordReset(_ definition: StateMachineDefinition<Model>, exited: [Int32], entered: [Int32], _ model: Model) {
    guard let inspection = Inspection.listeningInspection(definition, of: model) else { return }
    let situation = Inspection.inspectionSituation(definition, of: model)
    inspection.record { sequence in
      InspectionRecord(
        sequence: sequence, kind: .step, exited: exited.map { definition.stateName($0) }, entered: entered.map { definition.stateName($0) },
        configuration: situation.configuration, state: situation.state, terminated: situation.terminated)
    }
  }
}
