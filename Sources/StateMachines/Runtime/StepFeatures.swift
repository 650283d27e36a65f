// The one interface between a step and the optional features: announcements (state
// notifications and path subscriptions), the store recorder, timeouts and notification triggers
// with the invokes they start, inspection, `didTransition` observers and transition streams.
// Every step (flat, planned, the statechart microstep) tells the features what it does at the
// same named points, in the order Semantics gives; each feature's own work stays in its folder.

/// What one step tells the optional features, at its named points.
///
/// Made at the start of a step with one read of the object's side storage: for an object that
/// uses no feature, `announces` is `false` and the step's later reads find no extras, so each
/// point costs one branch. The points, in a step's order:
///
/// 1. ``exiting(_:_:event:payload:_:_:)``, right before a state's exit actions (or an internal
///    transition's action): announcements.
/// 2. ``transitioned(_:_:)``, once the state or configuration is written: the store recorder's
///    history row (Persistence P2); ``noted(_:_:)``: the inspected run's note of the microstep
///    (Inspecting B.3); then ``disarmed(_:all:_:_:)`` or ``disarmed(_:exited:)``: the exited
///    states' triggers (their timeouts, notification observers and invokes, Semantics step 6,
///    Hierarchy S18).
/// 3. ``entering(_:event:payload:_:_:)``, right before a state's entry actions: announcements; and
///    ``armed(_:event:payload:_:_:)``, where the engine arms an entered state's triggers.
/// 4. ``ended(_:streamsMayListen:transition:completed:_:_:)``, after the `after` callbacks: the
///    observers and the transition streams, held back in a store step (Persistence P5).
///
/// Each point takes the step's definition and object as arguments, borrowed: stored here, they
/// would cost every step a retain and a release each.
@usableFromInline
struct StepFeatures<Model: StateMachineObject> {
  /// Whether entries, exits and internal transitions are announced (notifications or path
  /// subscriptions).
  @usableFromInline let announces: Bool

  /// The features of a step of `model`, reading whether it announces.
  @inlinable @inline(__always)
  init(_ definition: StateMachineDefinition<Model>, _ model: Model) {
    self.init(announces: StateAnnouncements.announces(definition, model))
  }

  /// The features of a step that has read whether it announces (a planned step reads it with
  /// the rest of its start).
  @inlinable @inline(__always)
  init(announces: Bool) {
    self.announces = announces
  }

  // MARK: 1. Exit

  /// `state` is about to run its exit actions (`.exit`) or, taking an internal transition, the
  /// transition's action (`.internalTransition`).
  @inlinable @inline(__always)
  func exiting(
    _ kind: StateAnnouncement, _ state: Int32, event: Int32, payload: (any Sendable)?,
    _ definition: StateMachineDefinition<Model>, _ model: Model
  ) {
    if announces { StateAnnouncements.announce(definition, kind, state, event: event, payload: payload, model) }
  }

  // MARK: 2. Transition

  /// The state or configuration is written: a store step records the history row.
  ///
  /// - Parameters:
  ///   - extras: the object's extras, read once the state is written (`nil`: the object has
  ///     none, so nothing is recorded, disarmed or inspected).
  ///   - completed: the history row a store step records, built only in a store step.
  @inlinable @inline(__always)
  func transitioned(_ extras: StateMachineExtras?, _ completed: () -> CompletedTransition) {
    extras?.storeRecorder?.record(completed())
  }

  /// The written transition, in an inspected run: `note` notes the microstep in the run's
  /// capture (called only in one). A planned step never runs inspected, so only the flat and
  /// the full statechart steps call it.
  @inlinable @inline(__always)
  func noted(_ extras: StateMachineExtras?, _ note: (StepCapture) -> Void) {
    if let capture = extras?.capture { note(capture) }
  }

  /// The step left its state (`all`: a flat machine's state, or a machine that terminates):
  /// everything the object armed is disarmed, and the triggers on their way made stale.
  @inlinable @inline(__always)
  func disarmed(
    _ extras: StateMachineExtras?, all: Bool, _ definition: StateMachineDefinition<Model>, _ model: Model
  ) {
    if all && extras != nil { Triggers.disarm(definition, model) }
  }

  /// The step exited the states of `exited` (a statechart's exit set): what they armed is
  /// disarmed.
  @inlinable @inline(__always)
  func disarmed(_ extras: StateMachineExtras?, exited: StateSet) {
    extras?.disarm(exited)
  }

  // MARK: 3. Entry

  /// `state` is about to run its entry actions.
  @inlinable @inline(__always)
  func entering(
    _ state: Int32, event: Int32, payload: (any Sendable)?, _ definition: StateMachineDefinition<Model>,
    _ model: Model
  ) {
    if announces { StateAnnouncements.announce(definition, .entry, state, event: event, payload: payload, model) }
  }

  /// `state` was entered by `event`: its timeouts and notification observers are armed and its
  /// invokes wait for the end of the macrostep (Invoke I2). A state without triggers costs a
  /// load and a branch.
  @inlinable @inline(__always)
  func armed(
    _ state: Int32, event: Int32, payload: (any Sendable)?, _ definition: StateMachineDefinition<Model>,
    _ model: Model
  ) {
    Triggers.armIfNeeded(definition, state, model, event: event, payload: payload)
  }

  // MARK: 4. End of the step

  /// The step has run its `after` callbacks: the definition's observers and the object's
  /// transition streams see it. `extras` is what the step read (observers are held back when it
  /// holds a store recorder). The streams are looked up again, since a callback may have made
  /// one; an object that never had one skips their lock. `streamsMayListen`: `false` when the
  /// step has read that no stream was ever made (a planned step reads it with its start).
  @inlinable @inline(__always)
  func ended(
    _ extras: StateMachineExtras?, streamsMayListen: Bool = true, transition: () -> Transition,
    completed: () -> CompletedTransition, _ definition: StateMachineDefinition<Model>, _ model: Model
  ) {
    StepActions.notifyObservers(definition, model, extras, transition)
    guard streamsMayListen,
      definition.locked(model, { model._$stateMachineStorage.extras?.mayHaveStreams ?? false }),
      let listening = definition.locked(model, { model._$stateMachineStorage.extras }), listening.hasStreams
    else { return }
    Triggers.publish(definition, completed(), to: listening)
  }
}
