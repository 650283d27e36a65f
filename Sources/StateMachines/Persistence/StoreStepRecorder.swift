// The store-step mode of the runtime (P1, P5, P8): while a store runs a step on an object, the
// object's extras hold a recorder. The step then runs as always, except that it arms no timer
// (the deadline is recorded instead), and its `after` callbacks, observers and stream elements
// are held back for `StoreStep.committed()`. One recorder per step, used by the thread that owns
// the machine's step.

import Foundation

/// What a store step did, recorded by the runtime's hooks; read by `storeStep` once the run to
/// completion is over.
///
/// `@unchecked Sendable`: only one thread uses it, the one that owns the machine's step (the
/// object's other threads queue their events instead of stepping), from `storeStep` setting it
/// to `storeStep` reading it.
@usableFromInline
final class StoreStepRecorder: @unchecked Sendable {
  /// One entry per microstep, in order: the history rows (P2).
  var transitions: [CompletedTransition] = []
  /// The deadlines armed by entered states, in order (a state entered again replaces its earlier
  /// ones).
  var armed: [ArmedTimeout] = []
  /// The first failure of a step of this run to completion (the first event's or a queued one's).
  var failure: StateMachineError?
  /// The `after` callbacks, observers and stream elements, in step order (P5).
  var held: [() throws -> Void] = []

  @usableFromInline init() {}

  /// Records one microstep.
  @usableFromInline func record(_ transition: CompletedTransition) {
    transitions.append(transition)
  }

  /// Holds back work that must run only once the step is committed.
  @usableFromInline func hold(_ work: @escaping () throws -> Void) {
    held.append(work)
  }
}

extension StoreStepRecorder {
  /// Records the deadlines of `state`, just entered in a store step, instead of arming timers
  /// (P8). Notification triggers are not armed: the stored object lives for one step only.
  static func recordArmed<Model: StateMachineObject>(
    _ definition: StateMachineDefinition<Model>, _ state: Int32, _ triggers: [CompiledMachine<Model>.Trigger], _ recorder: StoreStepRecorder) {
    let name = definition.stateName(state)
    recorder.armed.removeAll { $0.state == name }
    for trigger in triggers {
      guard let delay = trigger.timeout else { continue }
      recorder.armed.append(ArmedTimeout(state: name, event: definition.eventName(trigger.event), delay: delay))
    }
  }

  /// Remembers that a step of a store step's run to completion failed: the store rolls the whole
  /// step back (P5), even when the failed step was a queued one whose error the runtime only logs.
  @usableFromInline
  static func recordStoreStepFailure<Model: StateMachineObject>(
    _ definition: StateMachineDefinition<Model>, _ error: StateMachineError, _ model: Model) {
    guard let recorder = definition.locked(model, { model._$stateMachineStorage.extras?.storeRecorder }) else { return }
    if recorder.failure == nil { recorder.failure = error }
  }
}

@usableFromInline
enum StoreStepRecording<Model: StateMachineObject> {
  static func attachRecorder(_ definition: StateMachineDefinition<Model>, _ model: Model) -> StoreStepRecorder {
    let recorder = StoreStepRecorder()
    let extras = Triggers.extras(definition, of: model)
    definition.locked(model) { extras.storeRecorder = recorder }
    return recorder
  }

  static func detachRecorder(_ definition: StateMachineDefinition<Model>, _ model: Model) {
    definition.locked(model) { model._$stateMachineStorage.extras?.storeRecorder = nil }
  }

  /// The step's writes, from the recorder and the object's new machine columns.
  static func finish(_ definition: StateMachineDefinition<Model>,
    _ event: String, _ before: StoredMachineState, _ recorder: StoreStepRecorder, _ model: Model,
    exitingAll: Bool = false
  ) throws(StateMachineStoreError) -> StoreStep {
    if let failure = recorder.failure { throw .callbackFailed(event: event, underlying: failure) }
    var after = definition.storedState(of: model)
    after.version = before.version + Int64(recorder.transitions.count)
    definition.locked(model) { model._$stateMachineStorage.extras?.storeVersion = after.version }
    let wasActive = definition.activeStates(inStored: before.state)
    let isActive = after.isTerminated ? [] : definition.activeStates(inStored: after.state)
    let armed = recorder.armed.filter { isActive.contains($0.state) }
    // P8: a deadline row lives while its state stays entered: exited states lose theirs, and a
    // state entered again gets a new one.
    var exited: [String] = []
    for state in wasActive where exitingAll || !isActive.contains(state) { exited.append(state) }
    for timeout in armed where !exited.contains(timeout.state) { exited.append(timeout.state) }
    return StoreStep(
      event: event, before: before, after: after, transitions: recorder.transitions, exited: exited, armed: armed,
      held: HeldBack(recorder.held) { [definition] error in definition.trace("'\(event)': a callback after the commit threw: \(error)") })
  }
}
