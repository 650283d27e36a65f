// Starting invocations at the end of a macrostep and bringing their results back (Invoke
// A.4). Invokes are triggers of their states: `arm` pends them, the end of the run starts the
// ones whose state is still active, the exit of the state cancels them (`StateMachineExtras`).

/// Why a state's triggers are armed: what its invokes' `input` sees (I3, I10).
@usableFromInline
enum EntryCause {
  /// The machine's start: no event.
  case start
  /// A transition on `event` with `payload` entered the state.
  case event(Int32, (any Sendable)?)
  /// A decoded machine's first use (I10): invokes start at the end of that run.
  case restore
  /// `restoreState`, which runs no user code: invokes start at the end of the next event's run.
  case restoreState
}

/// An invoke of a state entered in the running macrostep, waiting for its end (I2).
struct PendingInvocation {
  let invocation: Int32
  /// The state's entry it belongs to: it starts only if that entry is still current.
  let armedIn: ArmedState
  let event: Int32
  let payload: (any Sendable)?
  let restored: Bool
  var waitsForNextRun: Bool
}

@usableFromInline
enum Invocations<Model: StateMachineObject> {
  /// Pends invoke `invocation` of a state just entered; the run's end starts it (``drainQueue``
  /// is reached because the queued flag is set).
  static func pend(_ definition: StateMachineDefinition<Model>,
    _ invocation: Int32, armedIn: ArmedState, cause: EntryCause, _ extras: StateMachineExtras, _ model: Model
  ) {
    var (event, payload, restored, waits): (Int32, (any Sendable)?, Bool, Bool) = (-1, nil, false, false)
    switch cause {
    case .start: break
    case .event(let entering, let enteringPayload): (event, payload) = (entering, enteringPayload)
    case .restore: restored = true
    case .restoreState: (restored, waits) = (true, true)
    }
    let pending = PendingInvocation(
      invocation: invocation, armedIn: armedIn, event: event, payload: payload, restored: restored,
      waitsForNextRun: waits)
    extras.pendingInvocations.append(pending)
    definition.locked(model) { model._$stateMachineStorage.set(StateMachineStorage.queuedFlag, true) }
  }

  /// The pending invokes that may start now, removed from the list: none while an internal event
  /// waits (the macrostep has not ended, I2). Under the object's lock, on the thread that owns
  /// the machine. `afterEvent`: the run is an event's (not a query's or `restoreState`'s), so
  /// the invokes of a restored configuration may start too.
  static func takeReadyInvocations(_ definition: StateMachineDefinition<Model>, _ model: Model, afterEvent: Bool) -> [PendingInvocation]? {
    guard let extras = model._$stateMachineStorage.extras, !extras.pendingInvocations.isEmpty else { return nil }
    if afterEvent {
      for index in extras.pendingInvocations.indices { extras.pendingInvocations[index].waitsForNextRun = false }
    }
    if extras.queue.contains(where: { !$0.isExternal }) { return nil }
    let ready = extras.pendingInvocations.filter { !$0.waitsForNextRun }
    guard !ready.isEmpty else { return nil }
    extras.pendingInvocations.removeAll { !$0.waitsForNextRun }
    // Document order (I2, SCXML's entry order), whichever microstep entered the state; a
    // state's invokes in declaration order. (State indices are in document order.)
    return ready.sorted {
      let states = (definition.compiled.invocations[Int($0.invocation)].state, definition.compiled.invocations[Int($1.invocation)].state)
      return states.0 != states.1 ? states.0 < states.1 : $0.invocation < $1.invocation
    }
  }

  /// Whether invokes wait for a later run (the queued flag stays set for them).
  static func hasWaitingInvocations(_ definition: StateMachineDefinition<Model>, _ model: Model) -> Bool {
    model._$stateMachineStorage.extras.map { !$0.pendingInvocations.isEmpty } ?? false
  }

  /// Starts the invokes of states still active with the same entry (I2), in document order: runs
  /// each `input` (I3), then its work in a task (I4). Where callbacks run: on the
  /// thread that owns the machine, outside the lock.
  static func startInvocations(_ definition: StateMachineDefinition<Model>, _ ready: [PendingInvocation], _ model: Model) {
    for pending in ready {
      guard definition.locked(model, { pending.armedIn.isCurrent(in: model._$stateMachineStorage) }) else { continue }
      let invocation = definition.compiled.invocations[Int(pending.invocation)]
      if pending.restored && invocation.onRestore == .fail {
        Invocations.raiseInvocationError(definition, invocation, InvocationError.interruptedByRestore(id: invocation.id), pending, model)
        continue
      }
      let transition = Transition(
        definition.transitionNames, event: pending.event, from: -1, to: invocation.state, payload: pending.payload)
      let input: any Sendable
      do {
        input = try invocation.input(model, transition)
      } catch {
        definition.trace("invoke '\(invocation.id)': input failed: \(error)")
        Invocations.raiseInvocationError(definition, invocation, error, pending, model)
        continue
      }
      Invocations.startWork(definition, invocation, input: input, armedIn: pending.armedIn, model)
    }
  }

  /// Raises `error.invoke.<id>` as an internal event: it runs before the machine goes idle (I3).
  static func raiseInvocationError(_ definition: StateMachineDefinition<Model>,
    _ invocation: CompiledInvocation<Model>, _ error: any Error, _ pending: PendingInvocation, _ model: Model
  ) {
    guard invocation.errorEvent >= 0 else {
      (definition.compiled.log ?? .standardError).write(
        "[\(Model.self)] invoke '\(invocation.id)' failed and no transition takes "
          + "'\(InvocationEvents.error(invocation.id))': \(error)")
      return
    }
    definition.locked(model) {
      model._$stateMachineStorage.enqueue(
        QueuedEvent(
          event: invocation.errorEvent, payload: error, isOwn: true, armedIn: pending.armedIn,
          source: .invoke(id: invocation.id, generation: 0)))
    }
  }

  /// Starts the work of `invocation` in a task of its own (I4), registered before this returns.
  static func startWork(_ definition: StateMachineDefinition<Model>,
    _ invocation: CompiledInvocation<Model>, input: any Sendable, armedIn: ArmedState, _ model: Model
  ) {
    let registry = definition.locked(model) {
      let extras = model._$stateMachineStorage.extras!
      if let registry = extras.invocations { return registry }
      let registry = InvocationRegistry()
      registry.inspection = extras.inspection
      extras.invocations = registry
      return registry
    }
    let delivery = Invocations.invocationDelivery(definition, invocation, armedIn: armedIn, registry, model)
    let (id, clock, work) = (invocation.id, definition.compiled.clock, invocation.work)
    // A failure that no transition names still reaches the delivery, to be logged (I14).
    let (done, failed) = (invocation.doneEvent, invocation.errorEvent >= 0 ? invocation.errorEvent : unnamedFailure)
    // I13: the newest 64 forwarded events wait for the work; none for an invoke that does not forward.
    let (events, forwarding) = AsyncStream<ForwardedEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
    if !invocation.autoforward { forwarding.finish() }
    let statePath = definition.stateName(invocation.state)
    let generation = registry.start(
      id: id, owner: armedIn.state, statePath: statePath, results: (done, failed),
      forwarding: invocation.autoforward ? forwarding : nil
    ) { generation in
      let sender = InvocationSender { name, payload in
        guard registry.isRunning(generation) else {
          registry.record(.dropped, id: id, generation: generation, state: statePath, event: name)
          return false
        }
        return await delivery.send(name, payload, generation: generation)
      }
      let start = InvocationStart(
        input: input, id: id, generation: generation, clock: clock, sender: sender, events: events)
      return Task {
        let result: (event: Int32, payload: (any Sendable)?, phase: InspectedInvocation.Phase)
        do {
          result = (done, try await work(start), .done)
        } catch {
          result = (failed, error, .error)
        }
        let resultName = result.phase == .done ? InvocationEvents.done(id) : InvocationEvents.error(id)
        // A cancelled invocation's result is dropped (I7, I8); exactly one result per generation (I6).
        if registry.finish(generation) {
          registry.record(result.phase, id: id, generation: generation, state: statePath, event: resultName)
          _ = await delivery.deliver(result.event, result.payload, generation: generation, isResult: true)
        } else {
          registry.count(delivered: false)
          registry.record(.dropped, id: id, generation: generation, state: statePath, event: resultName)
        }
        registry.taskEnded()
      }
    }
    definition.trace("invoke '\(id)#\(generation)' started in '\(definition.stateName(invocation.state))'")
  }

  /// How results and sends of an invocation reach the object: on its actor or under its lock,
  /// only while the invocation is current (I7), as external events (I6, I12).
  static func invocationDelivery(_ definition: StateMachineDefinition<Model>,
    _ invocation: CompiledInvocation<Model>, armedIn: ArmedState, _ registry: InvocationRegistry, _ model: Model
  ) -> InvocationDelivery {
    let id = invocation.id
    let statePath = definition.stateName(invocation.state)
    let eventNames = definition.compiled.events
    /// Tells the inspection streams that `event` of `generation` was dropped.
    func dropped(_ event: Int32, _ generation: UInt64) {
      let name = event >= 0 && Int(event) < eventNames.count ? eventNames[Int(event)] : nil
      registry.record(.dropped, id: id, generation: generation, state: statePath, event: name)
    }
    return InvocationDelivery(actor: model._$stateMachineActor, eventIndex: { [weak definition] in definition?.eventIndex($0) }) {
      [weak definition, weak model] event, payload, generation, isResult in
      guard let definition, let model else {
        if isResult { registry.count(delivered: false) }
        return false
      }
      let current = definition.locked(model) {
        (isResult ? registry.takeResult(generation) : registry.isRunning(generation))
          && armedIn.isCurrent(in: model._$stateMachineStorage)
      }
      guard current else {
        if isResult {
          registry.count(delivered: false)
          definition.trace("stale result of '\(id)#\(generation)' dropped")
        }
        dropped(event, generation)
        return false
      }
      guard event >= 0 else {
        // Nothing to run, but whether it is stale is decided once the machine is free (I7).
        if isResult && !Invocations.isCurrentOnceFree(definition, model, armedIn) {
          registry.count(delivered: false)
          definition.trace("stale result of '\(id)#\(generation)' dropped")
          return false
        }
        if isResult { registry.count(delivered: true) }
        definition.trace("result of '\(id)#\(generation)' not handled: no transition takes it")
        if event == unnamedFailure { Invocations.logUnhandledFailure(definition, id, generation, payload) }
        return false
      }
      let outcome = RunLoop.runToCompletion(
        definition, event, payload, model, armedIn: armedIn, external: true, source: .invoke(id: id, generation: generation))
      if isResult {
        Invocations.logResultOutcome(definition, outcome, event, id, generation, payload, model, armedIn: armedIn)
        // Taking the machine checks the entry again: it may have been left while this waited.
        var stale = false
        if case .rejected(.busy) = outcome {
          stale = !definition.locked(model) { armedIn.isCurrent(in: model._$stateMachineStorage) }
        }
        registry.count(delivered: !stale)
        if stale {
          definition.trace("stale result of '\(id)#\(generation)' dropped")
          dropped(event, generation)
        }
      }
      return outcome.happened
    }
  }
}

/// Runs an invocation's deliveries on its object's actor, or at once for an object with a lock.
///
/// `@unchecked Sendable`: made only for objects that are actor-isolated or locked (`arm` checks),
/// and `fire` touches the object only on that actor or through its lock, as `TriggerDelivery`.
final class InvocationDelivery: @unchecked Sendable {
  let actor: (any Actor)?
  /// The definition's index of an event name (`nil` if unknown).
  let eventIndex: (String) -> Int32?
  /// Fires the event (a result, or a `send` when the Bool is false) of the given generation if
  /// it is still current.
  let fire: (Int32, (any Sendable)?, UInt64, Bool) -> Bool

  init(
    actor: (any Actor)?, eventIndex: @escaping (String) -> Int32?,
    fire: @escaping (Int32, (any Sendable)?, UInt64, Bool) -> Bool
  ) {
    self.actor = actor
    self.eventIndex = eventIndex
    self.fire = fire
  }

  /// Delivers a result.
  func deliver(_ event: Int32, _ payload: (any Sendable)?, generation: UInt64, isResult: Bool) async -> Bool {
    guard let actor else { return fire(event, payload, generation, isResult) }
    return await runIsolated(on: actor) { self.fire(event, payload, generation, isResult) }
  }

  /// Delivers an event the work sent (``InvocationContext/send(_:payload:)``).
  func send(_ name: String, _ payload: (any Sendable)?, generation: UInt64) async -> Bool {
    guard let actor else { return fireNamed(name, payload, generation) }
    return await runIsolated(on: actor) { self.fireNamed(name, payload, generation) }
  }

  private func fireNamed(_ name: String, _ payload: (any Sendable)?, _ generation: UInt64) -> Bool {
    guard let event = eventIndex(name) else { return false }
    return fire(event, payload, generation, false)
  }
}


extension Invocations {
  /// Forwards an external event the machine takes to its autoforwarding invocations (I13).
  /// Called only when the definition has one (`compiled.forwardsEvents`).
  @usableFromInline
  static func forwardToInvocations(_ definition: StateMachineDefinition<Model>, _ event: Int32, _ payload: (any Sendable)?, _ model: Model) {
    guard let registry = definition.locked(model, { model._$stateMachineStorage.extras?.invocations }) else { return }
    registry.forward(event, ForwardedEvent(name: definition.eventName(event), payload: payload))
  }
}

extension Invocations {
  /// The object's invocation registry, once it started one.
  static func invocationRegistry(_ definition: StateMachineDefinition<Model>, of model: Model) -> InvocationRegistry? {
    definition.locked(model) { model._$stateMachineStorage.extras?.invocations }
  }
}
