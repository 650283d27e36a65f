// Timeouts, notification-triggered transitions and transition streams: the per-object
// resources that live in `StateMachineExtras`.

@usableFromInline
enum Triggers<Model: StateMachineObject> {
  /// The object's extras, created on first use, marked as holding something every step must see
  /// (streams, timeouts, notifications): the object then always takes the full step.
  @usableFromInline
  static func extras(_ definition: StateMachineDefinition<Model>, of model: Model) -> StateMachineExtras {
    definition.locked(model) {
      model._$stateMachineStorage.set(StateMachineStorage.extrasFlag, true)
      if let extras = model._$stateMachineStorage.extras { return extras }
      let extras = StateMachineExtras()
      model._$stateMachineStorage.extras = extras
      return extras
    }
  }

  /// Arms the timeouts and notification observers of `state`, just entered. Called by the thread
  /// that owns the machine.
  /// `event` and `payload` entered the state (what its invokes' `input` sees); the entry cause is
  /// made only for a state with triggers, so a step entering states without any pays nothing.
  @inlinable
  static func armIfNeeded(_ definition: StateMachineDefinition<Model>, _ state: Int32, _ model: Model, event: Int32, payload: (any Sendable)?) {
    if !definition.compiled.triggers[Int(state)].isEmpty { Triggers.arm(definition, state, model, entering: .event(event, payload)) }
  }

  /// Arms the triggers of `state` (see ``armIfNeeded(_:_:event:payload:)``); its invokes wait for the
  /// end of the macrostep (``pend(_:armedIn:cause:_:_:)``, Invoke I2).
  @usableFromInline
  static func arm(_ definition: StateMachineDefinition<Model>, _ state: Int32, _ model: Model, entering cause: EntryCause = .start) {
    let triggers = definition.compiled.triggers[Int(state)]
    guard !triggers.isEmpty, !definition.compiled.isSkeleton else { return }
    // A store-managed class always has a lock (P13), so a store step gets past this check.
    let actor = model._$stateMachineActor
    guard model._$stateMachineLock != nil || actor != nil else {
      (definition.compiled.log ?? .standardError).write(
        "[\(Model.self)] timeouts and notifications of state '\(definition.stateName(state))' are not armed: "
          + "the class must be isolated to a global actor or declare Sendable")
      return
    }
    let extras = Triggers.extras(definition, of: model)
    // A store step arms no timer: it records the deadline for the store to write (P8). The
    // recorder is set and read by the thread that owns the step, as in `runAfterCallbacks`.
    if let recorder = extras.storeRecorder { return StoreStepRecorder.recordArmed(definition, state, triggers, recorder) }
    // A statechart's trigger is current while its state stays entered (its entry serial, S18);
    // a flat machine's while no transition disarmed the triggers (the epoch).
    let owner = definition.compiled.engine.triggerOwner(state)
    let armedIn = definition.locked(model) {
      if owner >= 0, let serial = extras.chart?.entrySerial[owner] {
        return ArmedState(state: owner, serial: serial)
      }
      return ArmedState(state: -1, serial: extras.epoch)
    }
    let delivery = TriggerDelivery(actor: actor) { [weak model] event, source in
      guard let model else { return }
      _ = RunLoop.runToCompletion(definition, event, nil, model, armedIn: armedIn, source: source)
    }
    for trigger in triggers {
      let event = trigger.event
      if let timeout = trigger.timeout {
        let scheduler = definition.compiled.scheduler
        let id = scheduler.schedule(after: timeout) { await delivery.deliver(event) }
        extras.timeouts.append((scheduler, id, owner))
      }
      if let invocation = trigger.invocation {
        Invocations.pend(definition, invocation, armedIn: armedIn, cause: cause, extras, model)
      }
      if let name = trigger.notification {
        let center = definition.compiled.notificationCenter
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in
          delivery.deliverNotification(event)
        }
        extras.observations.append((center, token, owner))
      }
    }
  }

  /// The number of timeouts armed for `model`'s current state (for tests).
  static func armedTimeoutCount(_ definition: StateMachineDefinition<Model>, of model: Model) -> Int {
    definition.locked(model) { model._$stateMachineStorage.extras }?.timeouts.count ?? 0
  }

  /// The number of notification observers armed for `model`'s current state (for tests).
  static func armedNotificationCount(_ definition: StateMachineDefinition<Model>, of model: Model) -> Int {
    definition.locked(model) { model._$stateMachineStorage.extras }?.observations.count ?? 0
  }

  /// Sends a completed transition to the object's streams.
  @usableFromInline
  static func publish(_ definition: StateMachineDefinition<Model>, _ transition: CompletedTransition, to extras: StateMachineExtras) {
    if let recorder = extras.storeRecorder {
      guard !extras.streams.isEmpty else { return }
      return recorder.hold { [streams = extras.streams] in streams.yield(transition) }
    }
    if !extras.streams.isEmpty { extras.streams.yield(transition) }
  }

  /// Disarms what the current state armed, when it is left. Called by the thread that owns the
  /// machine; the epoch changes under the lock, so a trigger already on its way sees it is stale.
  @usableFromInline
  static func disarm(_ definition: StateMachineDefinition<Model>, _ model: Model) {
    guard let extras = definition.locked(model, { model._$stateMachineStorage.extras }) else { return }
    definition.locked(model) { extras.epoch &+= 1 }
    extras.disarm()
  }

  /// A new stream of `model`'s transitions.
  static func transitionStream(_ definition: StateMachineDefinition<Model>,
    of model: Model, bufferingPolicy: AsyncStream<CompletedTransition>.Continuation.BufferingPolicy
  ) -> AsyncStream<CompletedTransition> {
    let extras = Triggers.extras(definition, of: model)
    definition.locked(model) { extras.mayHaveStreams = true }
    return extras.streams.makeStream(bufferingPolicy: bufferingPolicy)
  }
}

/// Delivers a timeout or notification event to its object, on the object's actor or under its
/// lock, unless the object is gone or the trigger is stale.
///
/// `@unchecked Sendable`: it is only created for objects that are actor-isolated or locked, and
/// `fire` touches the object only on that actor or through its lock. Not generic, so the closures
/// that carry it to a timer or a notification observer capture no model type.
final class TriggerDelivery: @unchecked Sendable {
  let actor: (any Actor)?
  /// Fires an event on the object if it still exists and the trigger is still armed; the source
  /// says which kind of trigger it was, for inspection records.
  let fire: (Int32, InspectionSource) -> Void

  init(actor: (any Actor)?, fire: @escaping (Int32, InspectionSource) -> Void) {
    self.actor = actor
    self.fire = fire
  }

  /// From a timeout (or a notification that hopped to the actor).
  func deliver(_ event: Int32, source: InspectionSource = .timeout) async {
    if let actor {
      await runIsolated(on: actor) { self.fire(event, source) }
    } else {
      fire(event, source)
    }
  }

  /// From a notification, on the posting thread: at once for a locked object, or hop to the
  /// actor.
  func deliverNotification(_ event: Int32) {
    if actor != nil {
      Task { await self.deliver(event, source: .notification) }
    } else {
      fire(event, .notification)
    }
  }
}

