// The records an inspected object makes (INSPECTOR.md B.4): `.event` when an event is taken up,
// `.step` or `.rejected` when its run ends, `.invoke` when an invocation changes. Called only when
// a stream listens (`listeningInspection(of:)`), so none of this runs for an object nobody
// inspects.

import Foundation

extension StateMachineDefinition {
  /// Records a rejection of an event that was never taken up (an unknown name, a stale trigger):
  /// `.rejected` with the reason, and no `.event` before it.
  func recordRejection(
    _ event: String, source: InspectionSource?, payload: (any Sendable)?, _ error: StateMachineError, _ model: Model,
    _ inspection: InspectionStreams
  ) {
    let situation = inspectionSituation(of: model)
    inspection.record { sequence in
      InspectionRecord(
        sequence: sequence, kind: .rejected, event: event, source: source, payload: payload,
        configuration: situation.configuration, state: situation.state, terminated: situation.terminated,
        reason: error.description)
    }
  }

  /// Records `.event` for an event taken up for a step, and starts capturing what the step
  /// does. Returns when the step began, for its duration.
  @usableFromInline
  func beginInspectedStep(
    _ event: Int32, source: InspectionSource, payload: (any Sendable)?, _ model: Model,
    _ inspection: InspectionStreams
  ) -> ContinuousClock.Instant {
    let situation = inspectionSituation(of: model)
    inspection.record { sequence in
      InspectionRecord(
        sequence: sequence, kind: .event, event: eventName(event), source: source, payload: payload,
        configuration: situation.configuration, state: situation.state, terminated: situation.terminated)
    }
    inspection.capture = StepCapture()
    return ContinuousClock.now
  }

  /// Ends the capture begun by ``beginInspectedStep(_:source:payload:_:_:)``: `.rejected` with
  /// the reason when the step changed nothing, else `.step` with what it exited, entered and
  /// took, the configuration afterwards and its duration (and the error of a callback that
  /// threw after the state changed).
  @usableFromInline
  func endInspectedStep(
    _ event: Int32, source: InspectionSource, payload: (any Sendable)?, _ outcome: StepOutcome,
    started: ContinuousClock.Instant, _ model: Model, _ inspection: InspectionStreams
  ) {
    let duration = ContinuousClock.now - started
    let capture = inspection.capture ?? StepCapture()
    inspection.capture = nil
    let situation = inspectionSituation(of: model)
    let name = eventName(event)
    let reason: String?
    switch outcome {
    case .accepted, .queued: reason = nil
    case .rejected(let error), .failed(let error, false):
      inspection.record { sequence in
        InspectionRecord(
          sequence: sequence, kind: .rejected, event: name, source: source, payload: payload,
          configuration: situation.configuration, state: situation.state, terminated: situation.terminated,
          reason: error.description, duration: duration)
      }
      return
    case .failed(let error, true): reason = error.description
    }
    let paths = { (states: [Int32]) in states.map { self.stateName($0) } }
    inspection.record { sequence in
      InspectionRecord(
        sequence: sequence, kind: .step, event: name, source: source, payload: payload, exited: paths(capture.exited),
        entered: paths(capture.entered), transitions: capture.transitions, configuration: situation.configuration,
        state: situation.state, terminated: situation.terminated, reason: reason, duration: duration)
    }
  }
}
