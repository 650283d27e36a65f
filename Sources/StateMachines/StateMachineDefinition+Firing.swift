// The transition algorithm (SEMANTICS.md, "Firing an event"). Inlinable, so that a generated
// event method is specialised for its class. Three tiers, chosen per (state, event) slot when the
// definition is compiled:
// - fast: the transition runs no code; a table load and a store;
// - light: it runs only plain `before`/`after` callbacks; no `Transition` is built;
// - full: everything else (guards, actions, entry/exit, observers, triggers, the log), `step`.

import Foundation

/// How one run-to-completion step ended.
@usableFromInline
enum StepOutcome {
  /// The transition happened.
  case accepted
  /// Fired from inside a callback: queued behind the current step.
  case queued
  /// Nothing changed.
  case rejected(StateMachineError)
  /// A callback threw; `transitionHappened` says whether the state had been written.
  case failed(StateMachineError, transitionHappened: Bool)

  /// The `Bool` an event method returns.
  @inlinable var happened: Bool {
    switch self {
    case .accepted, .queued: return true
    case .rejected: return false
    case .failed(_, let transitionHappened): return transitionHappened
    }
  }
}

extension StateMachineDefinition {
  /// Runs `body` under the object's lock, if it has one.
  @inlinable
  func withLock<R>(_ model: Model, _ body: () throws -> R) rethrows -> R {
    if let lock = model._$stateMachineLock {
      return try lock.withLock(body)
    }
    return try body()
  }

  // MARK: Firing

  /// Fires `event` on `model`. Returns whether a transition happened (or the event was queued
  /// because it was fired from inside a callback of the same machine).
  @inlinable
  public func fire(_ event: StateMachineEventID, on model: Model) -> Bool {
    if let lock = model._$stateMachineLock {
      return lock.withLock { fireWithoutPayload(event, model) }
    }
    return fireWithoutPayload(event, model)
  }

  /// Fires `event` on `model` with a payload that callbacks, guards and actions receive.
  @inlinable
  public func fire(_ event: StateMachineEventID, payload: Any?, on model: Model) -> Bool {
    guard let payload else { return fire(event, on: model) }
    return withLock(model) { process(event.index, payload, model).happened }
  }

  /// Fires `event` on `model` and throws why it was rejected or failed.
  @inlinable
  public func fireOrThrow(
    _ event: StateMachineEventID, payload: Any? = nil, on model: Model
  ) throws(StateMachineError) {
    let outcome = withLock(model) { process(event.index, payload, model) }
    switch outcome {
    case .accepted, .queued: return
    case .rejected(let error), .failed(let error, _): throw error
    }
  }

  /// The fast and light tiers; the rest goes to ``fireFully(_:_:)``. Called under the lock.
  @inlinable
  func fireWithoutPayload(_ event: StateMachineEventID, _ model: Model) -> Bool {
    if model._$stateMachineStorage.slowPathFlags == 0, !model._$stateMachineHasStateHooks {
      let state = model._$stateMachineStorage.stateIndex
      let slot: Int32
      if event.onlySource >= 0 {
        guard state == event.onlySource else { return false }
        slot = event.onlySourceSlot
      } else {
        slot = compiled.fastSlots[event.column &+ Int(state)]
      }
      if slot >= 0 {
        write(slot, model)
        return true
      }
      if slot <= CompiledMachine<Model>.light {
        return fireLight(compiled.lightTransitions[Int((CompiledMachine<Model>.light &- slot) >> 1)], model)
      }
      if slot == CompiledMachine<Model>.noTransition { return false }
    }
    return fireFully(event, model)
  }

  /// Everything the fast tiers do not handle: kept out of line so they stay small.
  @inlinable @inline(never)
  func fireFully(_ event: StateMachineEventID, _ model: Model) -> Bool {
    process(event.index, nil, model).happened
  }

  /// Runs a ``LightTransition`` as one run-to-completion step: guard, `before` callbacks, the
  /// state, `after` callbacks. A failing or throwing guard, or a throwing `before` callback,
  /// changes nothing (the events they fired are dropped too); a throwing `after` callback skips
  /// the rest and the new state stands.
  @inlinable @inline(__always)
  func fireLight(_ light: Unmanaged<LightTransition<Model>>, _ model: Model) -> Bool {
    runToCompletion(model) {
      light._withUnsafeGuaranteedRef { transition in
        if let callback = transition.soleAfterCallback {
          write(transition.target, model)
          // An error does not undo the transition.
          try? callback._withUnsafeGuaranteedRef { try $0.body(model) }
          return true
        }
        if let guardBox = transition.guardBox {
          let passed = (try? guardBox._withUnsafeGuaranteedRef { try $0.body(model) }) ?? false
          guard passed else {
            dropQueued(after: 0, model)
            return false
          }
        }
        do {
          try callPlain(transition.before, model)
        } catch {
          dropQueued(after: 0, model)
          return false
        }
        write(transition.target, model)
        // An error here does not undo the transition; the remaining callbacks are skipped.
        try? callPlain(transition.after, model)
        return true
      }
    }
  }

  /// Calls plain callbacks in order, through unowned references; stops at the first that throws.
  @inlinable @inline(__always)
  func callPlain(_ callbacks: [Unmanaged<PlainCallbackBox<Model>>], _ model: Model) throws {
    var index = 0
    while index < callbacks.count {
      try callbacks[index]._withUnsafeGuaranteedRef { try $0.body(model) }
      index &+= 1
    }
  }

  /// Runs `body` as one run-to-completion step: events fired meanwhile are queued, and run once
  /// `body` is done. Called under the lock, on an idle machine.
  @inlinable
  func runToCompletion<R>(_ model: Model, _ body: () -> R) -> R {
    model._$stateMachineStorage.isBusy = true
    let result = body()
    if model._$stateMachineStorage.hasQueuedEvents { drainQueue(model) }
    model._$stateMachineStorage.isBusy = false
    return result
  }

  /// Writes the state, telling Observation (a no-op unless the class is `@Observable`).
  @inlinable
  func write(_ state: Int32, _ model: Model) {
    model._$stateMachineWillChangeState()
    model._$stateMachineStorage.stateIndex = state
    model._$stateMachineDidChangeState()
  }

  // MARK: Queries

  /// Whether firing `event` now would take a transition. Guards run; nothing else does.
  @inlinable
  public func can(_ event: StateMachineEventID, on model: Model) -> Bool {
    withLock(model) {
      if model._$stateMachineStorage.isTerminated { return false }
      let from = model._$stateMachineStorage.stateIndex
      let slot = compiled.fastSlots[event.column &+ Int(from)]
      if slot == CompiledMachine<Model>.noTransition { return false }
      if slot >= 0 { return true }
      // A light slot without a guard (its low bit clear) is always taken.
      if slot <= CompiledMachine<Model>.light, (CompiledMachine<Model>.light &- slot) & 1 == 0 {
        return true
      }
      // Guards run as if inside a step: an event a guard fires is queued, then dropped, so that
      // asking changes nothing.
      let wasBusy = model._$stateMachineStorage.isBusy
      let queued = model._$stateMachineStorage.queue.count
      model._$stateMachineStorage.isBusy = true
      let candidate = try? selectCandidate(event.index, from: from, payload: nil, model)
      model._$stateMachineStorage.isBusy = wasBusy
      model._$stateMachineStorage.dropQueued(after: queued)
      return candidate != nil
    }
  }

  /// Whether `model` is in `state`.
  @inlinable
  public func isInState(_ state: StateMachineStateID, on model: Model) -> Bool {
    withLock(model) { model._$stateMachineStorage.stateIndex == state.index }
  }

  /// The name of `model`'s current state.
  @inlinable
  public func currentState(of model: Model) -> String {
    stateName(withLock(model) { model._$stateMachineStorage.stateIndex })
  }

  /// The events that would take a transition now, in declaration order.
  public func availableEvents(on model: Model) -> [String] {
    withLock(model) {
      compiled.events.indices.filter { can(eventID(index: Int32($0)), on: model) }
        .map { compiled.events[$0] }
    }
  }

  /// Whether `model`'s machine has terminated.
  public func isTerminated(_ model: Model) -> Bool {
    withLock(model) { model._$stateMachineStorage.isTerminated }
  }

  /// Puts `model` into `state` without running callbacks. Observation hooks may fire events:
  /// they run to completion after the state is written.
  public func restore(_ state: String, on model: Model) throws(StateMachineError) {
    guard let index = compiled.stateIndexByName[state] else { throw .unknownState(state) }
    withLock(model) {
      let restore = {
        self.disarm(model)
        self.write(index, model)
        model._$stateMachineStorage.isTerminated = self.compiled.isFinal[Int(index)]
        if !model._$stateMachineStorage.isTerminated { self.arm(index, model) }
      }
      if model._$stateMachineStorage.isBusy { restore() } else { runToCompletion(model, restore) }
    }
  }

  // MARK: The full step

  /// Whether (`state`, `event`) has any transition; `false` for an unknown event.
  @inlinable
  func hasTransition(_ state: Int32, _ event: Int32) -> Bool {
    guard event >= 0, Int(event) < compiled.events.count else { return false }
    return compiled.fastSlots[Int(event) &* compiled.columnHeight &+ Int(state)]
      != CompiledMachine<Model>.noTransition
  }

  /// Runs one event to completion, including the events queued meanwhile. Called under the lock.
  @inlinable
  func process(_ event: Int32, _ payload: Any?, _ model: Model) -> StepOutcome {
    guard event >= 0, Int(event) < compiled.events.count else {
      return .rejected(definitionError.map { .invalidDefinition($0) } ?? .unknownEvent("#\(event)"))
    }
    if model._$stateMachineStorage.isBusy {
      model._$stateMachineStorage.enqueue(QueuedEvent(event: event, payload: payload))
      return .queued
    }
    return runToCompletion(model) {
      guard let log = compiled.log else { return step(event, payload, model) }
      let start = ContinuousClock.now
      let outcome = step(event, payload, model)
      log.write("[\(Model.self)] step '\(eventName(event))' took \(ContinuousClock.now - start)")
      return outcome
    }
  }

  /// Runs the queued events, each as its own step. Errors of queued events go to the log.
  @inlinable
  func drainQueue(_ model: Model) {
    while let next = model._$stateMachineStorage.dequeue() {
      if case .failed(let error, _) = step(next.event, next.payload, model) {
        trace("queued event '\(eventName(next.event))' failed: \(error)")
      }
    }
  }

  /// Writes a line to the verbose log, if there is one.
  @inlinable
  func trace(_ message: @autoclosure () -> String) {
    if let log = compiled.log { log.write("[\(Model.self)] " + message()) }
  }

  /// The first candidate of (`from`, `event`) whose guard passes; `nil` if every guard failed.
  /// Throws what a guard throws.
  @inlinable
  func selectCandidate(
    _ event: Int32, from: Int32, payload: Any?, _ model: Model
  ) throws -> CompiledMachine<Model>.Candidate? {
    let slot = Int(from) * compiled.events.count + Int(event)
    let range = Int(compiled.candidateStarts[slot])..<Int(compiled.candidateStarts[slot + 1])
    for index in range {
      let candidate = compiled.candidates[index]
      guard let guardBody = candidate.guardBody else { return candidate }
      let to = candidate.target >= 0 ? candidate.target : from
      let passed = try guardBody(model) {
        Transition(
          event: compiled.events[Int(event)], from: compiled.states[Int(from)],
          to: compiled.states[Int(to)], payload: payload)
      }
      trace("guard of '\(eventName(event))' to '\(stateName(to))': \(passed)")
      if passed { return candidate }
    }
    return nil
  }

  /// One transition, steps 1–9 of SEMANTICS.md.
  @inlinable
  func step(_ event: Int32, _ payload: Any?, _ model: Model) -> StepOutcome {
    let queued = model._$stateMachineStorage.queue.count
    let outcome = attemptStep(event, payload, model)
    // A rejected or aborted step changed nothing: the events its guards or callbacks fired go too.
    if !outcome.happened { dropQueued(after: queued, model) }
    return outcome
  }

  /// Steps 1–9, without the clean-up of ``step(_:_:_:)``.
  @inlinable
  func attemptStep(_ event: Int32, _ payload: Any?, _ model: Model) -> StepOutcome {
    let from = model._$stateMachineStorage.stateIndex
    let eventName = compiled.events[Int(event)]
    trace("event '\(eventName)' in state '\(stateName(from))'")
    // 1. A terminated machine rejects everything.
    if let definitionError { return rejected(.invalidDefinition(definitionError)) }
    if model._$stateMachineStorage.isTerminated {
      return rejected(.terminated(event: eventName, state: stateName(from)))
    }
    // 2. Select the transition.
    if !hasTransition(from, event) {
      return rejected(.noTransition(event: eventName, state: stateName(from)))
    }
    let selected: CompiledMachine<Model>.Candidate
    do {
      guard let candidate = try selectCandidate(event, from: from, payload: payload, model) else {
        return rejected(.guardsFailed(event: eventName, state: stateName(from)))
      }
      selected = candidate
    } catch {
      return failed(eventName, transitionHappened: false, error)
    }
    let to = selected.target >= 0 ? selected.target : from
    let isExternal = !selected.isInternal
    // The Transition is built once, and only if a callback takes it.
    var built: Transition?
    func transition() -> Transition {
      if let built { return built }
      let made = Transition(
        event: eventName, from: compiled.states[Int(from)], to: compiled.states[Int(to)], payload: payload)
      built = made
      return made
    }
    // 3.–5. before callbacks, exit actions, the transition's action: a throw changes nothing.
    do {
      for callback in compiled.beforeCallbacks[Int(event)] { try callback(model, transition) }
      if isExternal {
        if !compiled.exitActions[Int(from)].isEmpty { trace("exit '\(stateName(from))'") }
        for action in compiled.exitActions[Int(from)] { try action(model, transition) }
      }
      try selected.action?(model, transition)
    } catch {
      return failed(eventName, transitionHappened: false, error)
    }
    // 6. The state is written; the old state's triggers are disarmed, the new one's armed.
    write(to, model)
    if selected.terminates || compiled.isFinal[Int(to)] {
      model._$stateMachineStorage.isTerminated = true
    }
    trace("transition '\(stateName(from))' -> '\(stateName(to))' on '\(eventName)'")
    let terminated = model._$stateMachineStorage.isTerminated
    if (isExternal || terminated) && model._$stateMachineStorage.extras != nil { disarm(model) }
    if isExternal && !terminated && !compiled.triggers[Int(to)].isEmpty { arm(to, model) }
    // 7.–8. entry actions, after callbacks: a throw skips the rest but the state stands.
    var failure: (any Error)?
    do {
      if isExternal {
        if !compiled.entryActions[Int(to)].isEmpty { trace("entry '\(stateName(to))'") }
        for action in compiled.entryActions[Int(to)] {
          if let next = try action(model, transition) { try enqueue(next, model) }
        }
      }
      for callback in compiled.afterCallbacks[Int(event)] { try callback(model, transition) }
    } catch {
      failure = error
    }
    for observer in compiled.observers { observer(model, transition()) }
    if let extras = model._$stateMachineStorage.extras {
      publish(CompletedTransition(from: stateName(from), event: eventName, to: stateName(to)), to: extras)
    }
    if let failure { return failed(eventName, transitionHappened: true, failure) }
    return .accepted
  }

  @inlinable
  func rejected(_ error: StateMachineError) -> StepOutcome {
    trace("rejected: \(error)")
    return .rejected(error)
  }

  /// Drops the events queued after the first `count`: those of a step that changed nothing.
  @inlinable
  func dropQueued(after count: Int, _ model: Model) {
    model._$stateMachineStorage.dropQueued(after: count)
  }

  @inlinable
  func failed(_ event: String, transitionHappened: Bool, _ error: any Error) -> StepOutcome {
    let failure = StateMachineError.callbackFailed(
      event: event, transitionHappened: transitionHappened, underlying: error)
    trace("failed: \(failure)")
    return .failed(failure, transitionHappened: transitionHappened)
  }

  /// Queues the event an entry action asked for.
  @inlinable
  func enqueue(_ next: NextStep, _ model: Model) throws(StateMachineError) {
    switch next {
    case .fire(let name, let payload):
      guard let index = compiled.eventIndexByName[name] else { throw .unknownEvent(name) }
      model._$stateMachineStorage.enqueue(QueuedEvent(event: index, payload: payload))
    }
  }
}
