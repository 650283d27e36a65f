// The definition's side of inspection (Inspecting B.3): registering a stream with its
// snapshot, and turning what a step did into records. Only objects with a listening stream get
// here; the steps ask `inspection(of:)` first.

import Foundation

@usableFromInline
enum Inspection<Model: StateMachineObject> {
  /// Registers `continuation` on `model` and yields its snapshot. Run where the object's events
  /// run (its actor, or any thread for a locked object): the machine is taken while the snapshot
  /// is made, so no step is half done; from inside a step (a callback inspecting its own object)
  /// the snapshot shows the step so far.
  static func addInspectionStream(_ definition: StateMachineDefinition<Model>, _ continuation: AsyncStream<InspectionRecord>.Continuation, on model: Model) {
    let extras = Triggers.extras(definition, of: model)
    let inspection: InspectionStreams = definition.locked(model) {
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
      if definition.definitionError == nil, definition.locked(model, { model._$stateMachineStorage.isUnstarted }) { _ = RunLoop.enter(definition, model) }
      let snapshot = Inspection.inspectionSituation(definition, of: model)
      let running = (definition.locked(model) { extras.invocations }?.active ?? []).map(\.id)
      inspection.add(continuation) { sequence in
        InspectionRecord(
          sequence: sequence, kind: .snapshot, configuration: snapshot.configuration, state: snapshot.state,
          terminated: snapshot.terminated, runningInvocations: running)
      }
    }
    switch RunLoop.admit(definition, model, whileBusy: {}) {
    case .taken:
      register()
      _ = RunLoop.endRun(definition, model, event: -1)
    case .busy:
      register()
    }
  }

  /// The configuration (every active state's path), the `state` string and termination, read
  /// without starting the machine.
  static func inspectionSituation(_ definition: StateMachineDefinition<Model>, of model: Model) -> (configuration: [String], state: String, terminated: Bool) {
    let terminated = definition.isTerminated(model)
    switch definition.compiled.engine {
    case .flat:
      let state = definition.stateName(definition.locked(model) { model._$stateMachineStorage.stateIndex })
      return ([state], state, terminated)
    case .statechart(let chart):
      let active = StatechartEngine.chartConfiguration(definition, model, chart).active
      return (active.members.map { definition.stateName($0) }, StatechartEngine.stateString(definition, active, chart), terminated)
    }
  }

  /// The inspection streams of `model` when one listens, else `nil` (the check every inspected
  /// step point makes; an object never inspected has no extras or no inspection).
  @usableFromInline
  static func listeningInspection(_ definition: StateMachineDefinition<Model>, of model: Model) -> InspectionStreams? {
    guard let inspection = definition.locked(model, { model._$stateMachineStorage.extras?.inspection }),
      inspection.isListening
    else { return nil }
    return inspection
  }
}
