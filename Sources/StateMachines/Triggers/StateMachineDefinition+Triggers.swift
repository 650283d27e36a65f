// Starting a machine, timeouts, notification-triggered transitions and transition streams: the
// per-object resources that live in `StateMachineExtras`.

extension StateMachineDefinition {
  /// The object's extras, created on first use, marked as holding something every step must see
  /// (streams, timeouts, notifications): the object then always takes the full step.
  @usableFromInline
  func extras(of model: Model) -> StateMachineExtras {
    locked(model) {
      model._$stateMachineStorage.set(StateMachineStorage.extrasFlag, true)
      if let extras = model._$stateMachineStorage.extras { return extras }
      let extras = StateMachineExtras()
      model._$stateMachineStorage.extras = extras
      return extras
    }
  }

  /// Arms the timeouts and notification observers of `state`, just entered. Called by the thread
  /// that owns the machine.
  @inlinable
  func armIfNeeded(_ state: Int32, _ model: Model) {
    if !compiled.triggers[Int(state)].isEmpty { arm(state, model) }
  }

  /// Arms the triggers of `state` (see ``armIfNeeded(_:_:)``).
  @usableFromInline
  func arm(_ state: Int32, _ model: Model) {
    let triggers = compiled.triggers[Int(state)]
    guard !triggers.isEmpty else { return }
    let actor = model._$stateMachineActor
    guard model._$stateMachineLock != nil || actor != nil else {
      (compiled.log ?? .standardError).write(
        "[\(Model.self)] timeouts and notifications of state '\(stateName(state))' are not armed: "
          + "the class must be isolated to a global actor or declare Sendable")
      return
    }
    let extras = extras(of: model)
    let epoch = locked(model) { extras.epoch }
    // A statechart's trigger is current while its state stays entered (its entry serial, S18);
    // a flat machine's while no transition disarmed the triggers (the epoch).
    let serial = compiled.chart == nil ? nil : locked(model) { extras.chart?.entrySerial[state] }
    let delivery = TriggerDelivery(actor: actor) { [weak model] event in
      guard let model else { return }
      _ = self.run(event, nil, model) {
        guard let extras = model._$stateMachineStorage.extras else { return false }
        if let serial { return extras.chart?.entrySerial[state] == serial }
        return extras.epoch == epoch
      }
    }
    let tag: Int32 = compiled.chart == nil ? -1 : state
    for trigger in triggers {
      let event = trigger.event
      if let timeout = trigger.timeout {
        let scheduler = compiled.scheduler
        let id = scheduler.schedule(after: timeout) { await delivery.deliver(event) }
        extras.timeouts.append((scheduler, id, tag))
      }
      if let name = trigger.notification {
        let center = compiled.notificationCenter
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in
          delivery.deliverNotification(event)
        }
        extras.observations.append((center, token, tag))
      }
    }
  }

  /// The number of timeouts armed for `model`'s current state (for tests).
  func armedTimeoutCount(of model: Model) -> Int {
    locked(model) { model._$stateMachineStorage.extras }?.timeouts.count ?? 0
  }

  /// The number of notification observers armed for `model`'s current state (for tests).
  func armedNotificationCount(of model: Model) -> Int {
    locked(model) { model._$stateMachineStorage.extras }?.observations.count ?? 0
  }

  /// Sends a completed transition to the object's streams.
  @usableFromInline
  func publish(_ transition: CompletedTransition, to extras: StateMachineExtras) {
    if !extras.streams.isEmpty { extras.streams.yield(transition) }
  }

  /// Disarms what the current state armed, when it is left. Called by the thread that owns the
  /// machine; the epoch changes under the lock, so a trigger already on its way sees it is stale.
  @usableFromInline
  func disarm(_ model: Model) {
    guard let extras = locked(model, { model._$stateMachineStorage.extras }) else { return }
    locked(model) { extras.epoch &+= 1 }
    extras.disarm()
  }

  /// Whether entering `state` runs anything: entry actions (unless it was restored), timeouts
  /// or notifications.
  func needsEntering(_ state: Int32, restored: Bool) -> Bool {
    // A statechart computes its initial configuration when it starts.
    // So does a machine that posts its entries.
    if compiled.chart != nil || compiled.postsStateNotifications { return true }
    guard compiled.triggers.indices.contains(Int(state)) else { return false }
    return !compiled.triggers[Int(state)].isEmpty || (!restored && !compiled.entryActions[Int(state)].isEmpty)
  }

  /// Enters the current state of a machine that has not started, on a machine this thread owns:
  /// arms its triggers, then runs its entry actions (not for a restored state).
  @usableFromInline
  func enter(_ model: Model) -> StepOutcome {
    let (state, restored, terminated) = locked(model) {
      let storage = model._$stateMachineStorage
      model._$stateMachineStorage.set(StateMachineStorage.unstartedFlag | StateMachineStorage.restoredFlag, false)
      return (storage.stateIndex, storage.slowPathFlags & StateMachineStorage.restoredFlag != 0, storage.isTerminated)
    }
    if terminated { return .accepted }
    if let chart = compiled.chart { return enterChart(chart, model, restored: restored) }
    trace("start in '\(stateName(state))'")
    arm(state, model)
    if restored { return .accepted }
    let transition = Transition(event: "", from: stateName(state), to: stateName(state))
    if announces(model) { announce(.entry, state, event: -1, payload: nil, model) }
    do {
      for action in compiled.entryActions[Int(state)] {
        if let next = try action(model, { transition }) { try enqueue(next, model) }
      }
    } catch {
      let failure = StateMachineError.callbackFailed(event: "", transitionHappened: true, underlying: error)
      trace("failed: \(failure)")
      return .failed(failure, transitionHappened: true)
    }
    return .accepted
  }

  /// Starts the machine if it has not started: enters the current state as a run-to-completion
  /// step. Does nothing for a machine that has started (explicitly, by its first use, or by
  /// `restoreState`).
  func start(_ model: Model) throws(StateMachineError) {
    if let definitionError { throw .invalidDefinition(definitionError) }
    // A busy machine is running a step, so it has started.
    guard case .taken = admit(model, whileBusy: {}) else { return }
    let outcome = locked(model, { model._$stateMachineStorage.isUnstarted }) ? enter(model) : .accepted
    if endRun(model, event: -1) { throw limitError(-1) }
    if case .failed(let error, _) = outcome { throw error }
  }

  /// A new stream of `model`'s transitions.
  func transitionStream(
    of model: Model, bufferingPolicy: AsyncStream<CompletedTransition>.Continuation.BufferingPolicy
  ) -> AsyncStream<CompletedTransition> {
    let extras = extras(of: model)
    locked(model) { extras.mayHaveStreams = true }
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
  /// Fires an event on the object if it still exists and the trigger is still armed.
  let fire: (Int32) -> Void

  init(actor: (any Actor)?, fire: @escaping (Int32) -> Void) {
    self.actor = actor
    self.fire = fire
  }

  /// From a timeout.
  func deliver(_ event: Int32) async {
    if let actor {
      await runIsolated(on: actor) { self.fire(event) }
    } else {
      fire(event)
    }
  }

  /// From a notification, on the posting thread: at once for a locked object, or hop to the
  /// actor.
  func deliverNotification(_ event: Int32) {
    if actor != nil {
      Task { await self.deliver(event) }
    } else {
      fire(event)
    }
  }
}

/// Runs `body` on `actor`.
private func runIsolated(on actor: isolated any Actor, _ body: @Sendable () -> Void) {
  body()
}
