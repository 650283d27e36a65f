// The definition's side of inspection (Inspecting B.3): registering a stream with its
// snapshot, and turning what a step did into records. Only objects with a listening stream get
// here; the steps ask `inspection(of:)` first.

import Foundation

extension StateMachineDefinition {
  /// Registers `continuation` on `model` and yields its snapshot. Run where the object's events
  /// run (its actor, or any thread for a locked object): the machine is taken while the snapshot
  /// is made, so no step is half done; from inside a step (a callback inspecting its own object)
  /// the snapshot shows the step so far.
  func addInspectionStream(_ continuation: AsyncStream<InspectionRecord>.Continuation, on model: Model) {
    let extras = extras(of: model)
    let inspection: InspectionStreams = locked(model) {
      extras.mayHaveStreams = true
      model._$stateMachineStorage.set(StateMachineStorage.inspectedFlag, true)
      if let inspection = extras.inspection { return inspection }
      let inspection = InspectionStreams()
      extras.inspection = inspection
      extras.invocations?.inspection = inspection
      return inspection
    }
    func register() {
      // Like a query, the snapshot starts a machine that has not started (an unrecorded start).
      if definitionError == nil, locked(model, { model._$stateMachineStorage.isUnstarted }) { _ = RunLoop.enter(self, model) }
      let snapshot = inspectionSituation(of: model)
      let running = (locked(model) { extras.invocations }?.active ?? []).map(\.id)
      inspection.add(continuation) { sequence in
        InspectionRecord(
          sequence: sequence, kind: .snapshot, configuration: snapshot.configuration, state: snapshot.state,
          terminated: snapshot.terminated, runningInvocations: running)
      }
    }
    switch RunLoop.admit(self, model, whileBusy: {}) {
    case .taken:
      register()
      _ = RunLoop.endRun(self, model, event: -1)
    case .busy:
      register()
    }
  }

  /// The configuration (every active state's path), the `state` string and termination, read
  /// without starting the machine.
  func inspectionSituation(of model: Model) -> (configuration: [String], state: String, terminated: Bool) {
    let terminated = isTerminated(model)
    switch compiled.engine {
    case .flat:
      let state = stateName(locked(model) { model._$stateMachineStorage.stateIndex })
      return ([state], state, terminated)
    case .statechart(let chart):
      let active = StatechartEngine.chartConfiguration(self, model, chart).active
      return (active.members.map { stateName($0) }, StatechartEngine.stateString(self, active, chart), terminated)
    }
  }

  /// The inspection streams of `model` when one listens, else `nil` (the check every inspected
  /// step point makes; an object never inspected has no extras or no inspection).
  @usableFromInline
  func listeningInspection(of model: Model) -> InspectionStreams? {
    guard let inspection = locked(model, { model._$stateMachineStorage.extras?.inspection }),
      inspection.isListening
    else { return nil }
    return inspection
  }
}
