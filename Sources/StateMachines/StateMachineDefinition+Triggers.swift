// Timeouts, notification-triggered transitions and transition streams: the per-object resources
// that live in `StateMachineExtras`.

extension StateMachineDefinition {
  /// The object's extras, created on first use. Called under the object's lock or on its actor.
  @usableFromInline
  func extras(of model: Model) -> StateMachineExtras {
    if let extras = model._$stateMachineStorage.extras { return extras }
    let extras = StateMachineExtras()
    model._$stateMachineStorage.extras = extras
    return extras
  }

  /// Arms the timeouts and notification observers of `state`, just entered.
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
    let epoch = extras.epoch
    let delivery = TriggerDelivery(actor: actor) { [weak model] event in
      guard let model else { return }
      self.withLock(model) {
        guard model._$stateMachineStorage.extras?.epoch == epoch else { return }
        _ = self.process(event, nil, model)
      }
    }
    for trigger in triggers {
      let event = trigger.event
      if let timeout = trigger.timeout {
        extras.timers.append(startTimer(on: compiled.clock, after: timeout) { await delivery.deliver(event) })
      }
      if let name = trigger.notification {
        let center = compiled.notificationCenter
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in
          delivery.deliverNotification(event)
        }
        extras.observations.append((center, token))
      }
    }
  }

  /// The timer tasks armed for `model`'s current state (for tests, which await them).
  func armedTimers(of model: Model) -> [Task<Void, Never>] {
    withLock(model) { model._$stateMachineStorage.extras?.timers ?? [] }
  }

  /// Sends a completed transition to the object's streams.
  @usableFromInline
  func publish(_ transition: CompletedTransition, to extras: StateMachineExtras) {
    if !extras.streams.isEmpty { extras.streams.yield(transition) }
  }

  /// Disarms what the current state armed, when it is left.
  @usableFromInline
  func disarm(_ model: Model) {
    model._$stateMachineStorage.extras?.disarm()
  }

  /// Enters the current state, as a run-to-completion step: its triggers are armed, then its
  /// entry actions run; events they fire run afterwards.
  func start(_ model: Model) throws(StateMachineError) {
    if let definitionError { throw .invalidDefinition(definitionError) }
    let outcome: StepOutcome = withLock(model) {
      let enter = { () -> StepOutcome in
        let state = model._$stateMachineStorage.stateIndex
        self.disarm(model)
        if !model._$stateMachineStorage.isTerminated { self.arm(state, model) }
        let transition = Transition(event: "", from: self.stateName(state), to: self.stateName(state))
        do {
          for action in self.compiled.entryActions[Int(state)] {
            if let next = try action(model, { transition }) { try self.enqueue(next, model) }
          }
        } catch {
          return .failed(
            .callbackFailed(event: "", transitionHappened: true, underlying: error), transitionHappened: true)
        }
        return .accepted
      }
      return model._$stateMachineStorage.isBusy ? enter() : runToCompletion(model, enter)
    }
    if case .failed(let error, _) = outcome { throw error }
  }

  /// A new stream of `model`'s transitions.
  func transitionStream(of model: Model) -> AsyncStream<CompletedTransition> {
    withLock(model) { extras(of: model).streams.makeStream() }
  }
}

/// Delivers a timeout or notification event to its object, on the object's actor or under its
/// lock, unless the object is gone or the trigger is stale.
///
/// `@unchecked Sendable`: it is only created for objects that are actor-isolated or locked, and
/// `fire` touches the object only on that actor or under that lock. Not generic, so the closures
/// that carry it to a timer task or a notification observer capture no model type.
final class TriggerDelivery: @unchecked Sendable {
  let actor: (any Actor)?
  /// Fires an event on the object if it still exists and the trigger is still armed.
  let fire: (Int32) -> Void

  init(actor: (any Actor)?, fire: @escaping (Int32) -> Void) {
    self.actor = actor
    self.fire = fire
  }

  /// From a timer task.
  func deliver(_ event: Int32) async {
    if let actor {
      await runIsolated(on: actor) { self.fire(event) }
    } else {
      fire(event)
    }
  }

  /// From a notification, on the posting thread: at once under the lock, or hop to the actor.
  func deliverNotification(_ event: Int32) {
    if actor != nil {
      Task { await self.deliver(event) }
    } else {
      fire(event)
    }
  }
}

/// A task that runs `fire` once `clock` reaches now + `timeout`, unless cancelled first. The
/// deadline is taken now, when the state is entered, not when the task starts running.
private func startTimer<C: Clock<Duration>>(
  on clock: C, after timeout: Duration, _ fire: @escaping @Sendable () async -> Void
) -> Task<Void, Never> {
  let deadline = clock.now.advanced(by: timeout)
  return Task {
    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
    await fire()
  }
}

/// Runs `body` on `actor`.
private func runIsolated(on actor: isolated any Actor, _ body: @Sendable () -> Void) {
  body()
}
