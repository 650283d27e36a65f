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
