// The transition algorithm (SEMANTICS.md, "Firing an event"). Inlinable, so that a generated
// event method is specialised for its class. Three tiers, chosen per (state, event) slot when the
// definition is compiled:
// - fast: the transition runs no code; a table load and a store;
// - light: it runs only plain `before`/`after` callbacks; no `Transition` is built;
// - full: everything else (guards, actions, entry/exit, observers, triggers, the log), `step`.
//
// Concurrency (see `StateMachineLock`): for a `Sendable` object every access to the storage
// happens under its lock, and a step owns the machine through the busy flag while its callbacks
// run outside the lock. An object without a lock is used by one thread (or actor) at a time.

import Foundation

/// How one run-to-completion step ended.
@usableFromInline
enum StepOutcome {
  /// The transition happened.
  case accepted
  /// The machine was busy: the event waits in its queue and runs before the machine is idle.
  case queued
  /// Nothing changed.
  case rejected(StateMachineError)
  /// A callback threw (or the run to completion hit its step limit); `transitionHappened` says
  /// whether the state had been written.
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

/// What ``StateMachineDefinition/admit(_:whileBusy:)`` found.
@usableFromInline
enum Admission {
  /// The caller now owns the machine for a step and must end it with `endRun`.
  case taken
  /// The machine is busy and the caller must not wait for it: it runs a step itself. `here`:
  /// the busy step is the caller's own (on this thread).
  case busy(here: Bool)
}

extension StateMachineDefinition {
  // MARK: Storage access

  /// Runs `body` on the object's storage, under its lock if it has one.
  @inlinable @inline(__always)
  func locked<R>(_ model: Model, _ body: () throws -> R) rethrows -> R {
    if let lock = model._$stateMachineLock { return try lock.withLock(body) }
    return try body()
  }

  /// Whether `event` is an ID of this definition and `model` is driven by it. `modelChecked`
  /// skips the second check, which reads the object's definition (a lazy static for a generated
  /// class): generated members pass it, their object is driven by this definition by construction.
  @inlinable @inline(__always)
  func accepts(_ event: StateMachineEventID, on model: Model, modelChecked: Bool = false) -> Bool {
    event.definition == compiled.identity && (modelChecked || model.stateMachineDefinition === self)
  }

  /// Takes the machine for a step. If it is busy: when the calling thread is itself running a
  /// step (of any machine), runs `whileBusy` under the lock (to queue an event) and returns
  /// `.busy`; otherwise waits until the machine is idle. A thread that owns a machine therefore
  /// never waits for another one, and no pattern of callbacks can deadlock.
  @inlinable
  func admit(_ model: Model, whileBusy: () -> Void) -> Admission {
    guard let lock = model._$stateMachineLock else {
      if model._$stateMachineStorage.isBusy {
        whileBusy()
        return .busy(here: true)
      }
      model._$stateMachineStorage.isBusy = true
      return .taken
    }
    var round: UInt32 = 0
    while true {
      lock.lock()
      if !model._$stateMachineStorage.isBusy {
        model._$stateMachineStorage.isBusy = true
        lock.unlock()
        ThreadSteps.push(lock)
        return .taken
      }
      if ThreadSteps.isInsideStep {
        whileBusy()
        let here = ThreadSteps.owns(lock)
        lock.unlock()
        return .busy(here: here)
      }
      lock.unlock()
      ThreadSteps.pause(round)
      round &+= 1
    }
  }

  /// Ends a run to completion: runs the events queued meanwhile, each as its own step, then
  /// releases the machine. Returns whether the run hit the step limit (see ``limitError(_:)``).
  @inlinable
  func endRun(_ model: Model, event: Int32) -> Bool {
    let lock = model._$stateMachineLock
    lock?.lock()
    if !model._$stateMachineStorage.hasQueuedEvents {
      model._$stateMachineStorage.isBusy = false
      lock?.unlock()
      if lock != nil { ThreadSteps.pop() }
      return false
    }
    lock?.unlock()
    return drainQueue(model, event: event)
  }

  /// The error of a run to completion of `event` that hit the step limit.
  @usableFromInline
  func limitError(_ event: Int32) -> StateMachineError {
    .runToCompletionLimit(event: eventName(event), steps: compiled.maxSteps)
  }

  /// Runs the queued events, each as its own step; errors of queued events go to the log. Then
  /// releases the machine.
  ///
  /// The step limit counts the steps of this run to completion: the first event and the events
  /// queued by its steps (transitively). Past it, those queued events are dropped and logged.
  /// Events that other threads queued while the machine was busy are not part of this run: they
  /// always run, exactly once, and do not count.
  @usableFromInline @inline(never)
  func drainQueue(_ model: Model, event: Int32) -> Bool {
    let lock = model._$stateMachineLock
    var steps = 1
    var hitLimit = false
    while true {
      lock?.lock()
      guard let next = model._$stateMachineStorage.dequeue() else {
        model._$stateMachineStorage.isBusy = false
        lock?.unlock()
        if lock != nil { ThreadSteps.pop() }
        return hitLimit
      }
      if next.isOwn && steps >= compiled.maxSteps {
        let dropped = 1 + model._$stateMachineStorage.dropOwnQueued(after: 0)
        lock?.unlock()
        (compiled.log ?? .standardError).write(
          "[\(Model.self)] \(limitError(event)); dropped \(dropped) queued event(s), the first '\(eventName(next.event))'")
        hitLimit = true
        continue
      }
      if let armedIn = next.armedIn, !armedIn.isCurrent(in: model._$stateMachineStorage) {
        lock?.unlock()
        trace("queued event '\(eventName(next.event))' dropped: a timeout or notification of a state that was left")
        continue
      }
      lock?.unlock()
      if next.isOwn { steps += 1 }
      if case .failed(let error, _) = step(next.event, next.payload, model) {
        trace("queued event '\(eventName(next.event))' failed: \(error)")
      }
    }
  }

  // MARK: Firing

  /// Fires `event` on `model`. Returns whether a transition happened, or whether the event was
  /// queued because the machine was busy with a step of the calling thread (see
  /// ``StateMachineObject/fire(_:payload:)``).
  ///
  /// Inlined into the generated method, and kept small so that the method itself can be inlined
  /// into its caller: a transition that runs no code, on an object without a lock, is a compare of
  /// the ID's definition, a flags test, a table load (or a compare) and a store. Everything else
  /// is one call away.
  @inlinable @inline(__always)
  public func fire(_ event: StateMachineEventID, on model: Model) -> Bool {
    fire(event, model, modelChecked: false)
  }

  // MARK: Entry points of generated members
  //
  // A generated member reaches its definition through the class's IDs static, which keeps the
  // definition as an opaque pointer: reading a strong reference out of the static would retain
  // and release it on every call (two atomic operations). The pointer stays valid because the
  // definition is a `static let` of the class, alive for the rest of the process. The object is
  // driven by this definition by construction, so only the ID is checked.

  /// The opaque pointer a class's IDs keep for `definition` (see above).
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$opaque(_ definition: StateMachineDefinition<Model>) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(definition).toOpaque())
  }

  /// ``fire(_:on:)`` for a generated event method.
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$fire(_ definition: UnsafeRawPointer, _ event: StateMachineEventID, on model: Model) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.fire(event, model, modelChecked: true)
    }
  }

  /// ``fire(_:payload:on:)`` for a generated event method that takes a payload. (A name of its
  /// own, not an overload of `_$fire`: generated code that names one function type-checks faster.)
  @inlinable
  @_documentation(visibility: internal)
  public static func _$fireWithPayload(
    _ definition: UnsafeRawPointer, _ event: StateMachineEventID, payload: any Sendable, on model: Model
  ) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.fire(event, payload: payload, on: model)
    }
  }

  /// ``can(_:on:)`` for a generated `can<Event>` query.
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$can(_ definition: UnsafeRawPointer, _ event: StateMachineEventID, on model: Model) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.can(event, model, modelChecked: true)
    }
  }

  /// ``isInState(_:on:)`` for a generated `is<State>` query.
  @inlinable @inline(__always)
  @_documentation(visibility: internal)
  public static func _$isInState(_ definition: UnsafeRawPointer, _ state: StateMachineStateID, on model: Model) -> Bool {
    Unmanaged<StateMachineDefinition<Model>>.fromOpaque(definition)._withUnsafeGuaranteedRef {
      $0.isInState(state, on: model)
    }
  }

  @inlinable @inline(__always)
  func fire(_ event: StateMachineEventID, _ model: Model, modelChecked: Bool) -> Bool {
    if accepts(event, on: model, modelChecked: modelChecked), model._$stateMachineLock == nil,
      model._$stateMachineStorage.slowPathFlags == 0, !model._$stateMachineHasStateHooks
    {
      let slot = fastSlot(event, model._$stateMachineStorage.stateIndex)
      if slot >= 0 {
        model._$stateMachineStorage.stateIndex = slot
        return true
      }
      if slot == CompiledMachine<Model>.noTransition { return false }
    }
    return fireOutOfLine(event, model, modelChecked: modelChecked)
  }

  /// What the inlined part of ``fire(_:on:)`` leaves: an ID or object of another definition, the
  /// lock, the light tier and the full step.
  @inlinable @inline(never)
  func fireOutOfLine(_ event: StateMachineEventID, _ model: Model, modelChecked: Bool) -> Bool {
    guard accepts(event, on: model, modelChecked: modelChecked) else { return rejectForeign(event, model) }
    return fireWithoutPayload(event, model)
  }

  /// Fires `event` on `model` with a payload that callbacks, guards and actions receive.
  @inlinable
  public func fire(_ event: StateMachineEventID, payload: (any Sendable)?, on model: Model) -> Bool {
    guard let payload else { return fire(event, on: model) }
    guard accepts(event, on: model) else { return rejectForeign(event, model) }
    return process(event.index, payload, model).happened
  }

  /// Fires `event` on `model` and throws why it was rejected or failed.
  @inlinable
  public func fireOrThrow(
    _ event: StateMachineEventID, payload: (any Sendable)? = nil, on model: Model
  ) throws(StateMachineError) {
    guard accepts(event, on: model) else {
      _ = rejectForeign(event, model)
      throw .foreignID
    }
    switch process(event.index, payload, model) {
    case .accepted, .queued: return
    case .rejected(let error), .failed(let error, _): throw error
    }
  }

  /// An ID of another definition, or a model that another definition drives: rejected, logged.
  @usableFromInline @inline(never)
  func rejectForeign(_ event: StateMachineEventID, _ model: Model) -> Bool {
    trace("rejected: \(StateMachineError.foreignID)")
    return false
  }

  /// The fast and light tiers; the rest goes to ``fireFully(_:_:)``.
  @inlinable @inline(__always)
  func fireWithoutPayload(_ event: StateMachineEventID, _ model: Model) -> Bool {
    guard model._$stateMachineLock == nil else { return fireLocked(event, model) }
    if model._$stateMachineStorage.slowPathFlags == 0, !model._$stateMachineHasStateHooks {
      let slot = fastSlot(event, model._$stateMachineStorage.stateIndex)
      if slot >= 0 {
        model._$stateMachineStorage.stateIndex = slot
        return true
      }
      if slot <= CompiledMachine<Model>.light {
        model._$stateMachineStorage.isBusy = true
        let happened = fireLight(compiled.lightTransitions[Int((CompiledMachine<Model>.light &- slot) >> 1)], model)
        _ = endRun(model, event: event.index)
        return happened
      }
      if slot == CompiledMachine<Model>.noTransition { return false }
    }
    return fireFully(event, model)
  }

  /// The fast-table value of `event` in `state`; an event with one source state compares
  /// instead of loading.
  @inlinable @inline(__always)
  func fastSlot(_ event: StateMachineEventID, _ state: Int32) -> Int32 {
    if event.onlySource >= 0 {
      return state == event.onlySource ? event.onlySourceSlot : CompiledMachine<Model>.noTransition
    }
    return compiled.fastSlots[event.column &+ Int(state)]
  }

  /// The fast and light tiers of a `Sendable` object: the same, with the storage read and written
  /// under the lock and the callbacks run outside it, under the busy mark.
  @inlinable @inline(never)
  func fireLocked(_ event: StateMachineEventID, _ model: Model) -> Bool {
    guard let lock = model._$stateMachineLock else { return fireFully(event, model) }
    lock.lock()
    if model._$stateMachineStorage.slowPathFlags == 0, !model._$stateMachineHasStateHooks {
      let slot = fastSlot(event, model._$stateMachineStorage.stateIndex)
      if slot >= 0 {
        model._$stateMachineStorage.stateIndex = slot
        lock.unlock()
        return true
      }
      if slot <= CompiledMachine<Model>.light {
        model._$stateMachineStorage.isBusy = true
        lock.unlock()
        ThreadSteps.push(lock)
        let happened = fireLight(compiled.lightTransitions[Int((CompiledMachine<Model>.light &- slot) >> 1)], model)
        _ = endRun(model, event: event.index)
        return happened
      }
      if slot == CompiledMachine<Model>.noTransition {
        lock.unlock()
        return false
      }
    }
    lock.unlock()
    return fireFully(event, model)
  }

  /// Everything the fast tiers do not handle: kept out of line so they stay small.
  @inlinable @inline(never)
  func fireFully(_ event: StateMachineEventID, _ model: Model) -> Bool {
    process(event.index, nil, model).happened
  }

  /// Runs a ``LightTransition`` on a machine this thread owns: guard, `before` callbacks, the
  /// state, `after` callbacks. A failing or throwing guard, or a throwing `before` callback,
  /// changes nothing (the events they fired are dropped too); a throwing `after` callback skips
  /// the rest and the new state stands.
  @inlinable @inline(__always)
  func fireLight(_ light: Unmanaged<LightTransition<Model>>, _ model: Model) -> Bool {
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
          dropOwnQueued(after: 0, model)
          return false
        }
      }
      do {
        try callPlain(transition.before, model)
      } catch {
        dropOwnQueued(after: 0, model)
        return false
      }
      write(transition.target, model)
      // An error here does not undo the transition; the remaining callbacks are skipped.
      try? callPlain(transition.after, model)
      return true
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

  /// Writes the state (and termination), telling Observation (a no-op unless the class is
  /// `@Observable`). The hooks run outside the lock: they may run user code.
  @inlinable
  func write(_ state: Int32, _ model: Model, terminating: Bool = false) {
    model._$stateMachineWillChangeState()
    locked(model) {
      model._$stateMachineStorage.stateIndex = state
      if terminating { model._$stateMachineStorage.isTerminated = true }
    }
    model._$stateMachineDidChangeState()
  }

  // MARK: Queries

  /// Enters the current state if the machine has not started yet (its first use).
  @inlinable @inline(__always)
  func startIfNeeded(_ model: Model) {
    if locked(model, { model._$stateMachineStorage.isUnstarted }) { startOnFirstUse(model) }
  }

  @usableFromInline @inline(never)
  func startOnFirstUse(_ model: Model) {
    do { try start(model) } catch { trace("start on first use failed: \(error)") }
  }

  /// Whether firing `event` now would take a transition. Guards run; nothing else does. While
  /// the machine is busy with a step on another thread and the caller is itself inside a step,
  /// a guarded transition answers `false` (its guards cannot run meanwhile).
  @inlinable
  public func can(_ event: StateMachineEventID, on model: Model) -> Bool {
    can(event, model, modelChecked: false)
  }

  @inlinable @inline(__always)
  func can(_ event: StateMachineEventID, _ model: Model, modelChecked: Bool) -> Bool {
    // Inline: an object without a lock, started and not terminated, and a slot the table answers.
    if accepts(event, on: model, modelChecked: modelChecked), model._$stateMachineLock == nil,
      model._$stateMachineStorage.slowPathFlags & (StateMachineStorage.unstartedFlag | StateMachineStorage.terminatedFlag) == 0,
      let answer = answerFromTable(compiled.fastSlots[event.column &+ Int(model._$stateMachineStorage.stateIndex)])
    {
      return answer
    }
    return canOutOfLine(event, model, modelChecked: modelChecked)
  }

  /// Everything ``can(_:on:)`` does not answer inline.
  @inlinable @inline(never)
  func canOutOfLine(_ event: StateMachineEventID, _ model: Model, modelChecked: Bool) -> Bool {
    // An ID of another definition, or of a name this one does not know (index -1): no transition.
    guard accepts(event, on: model, modelChecked: modelChecked), event.index >= 0 else { return false }
    startIfNeeded(model)
    let (from, terminated) = locked(model) {
      (model._$stateMachineStorage.stateIndex, model._$stateMachineStorage.isTerminated)
    }
    if terminated { return false }
    if let answer = answerFromTable(slot(event.index, from)) { return answer }
    return withGuardsEvaluable(model, otherwise: false) { from in canTake(event.index, from: from, model) }
  }

  /// The fast-table value of (`event`, `state`).
  @inlinable
  func slot(_ event: Int32, _ state: Int32) -> Int32 {
    compiled.fastSlots[Int(event) &* compiled.columnHeight &+ Int(state)]
  }

  /// The answer of `can` that a table slot gives without running a guard, or `nil`.
  @inlinable
  func answerFromTable(_ slot: Int32) -> Bool? {
    if slot == CompiledMachine<Model>.noTransition { return false }
    if slot >= 0 { return true }
    // A light slot without a guard (its low bit clear) is always taken.
    if slot <= CompiledMachine<Model>.light, (CompiledMachine<Model>.light &- slot) & 1 == 0 { return true }
    return nil
  }

  /// Runs `body` with the current state where guards may run: on a machine this thread takes for
  /// the moment, or already runs a step of. Guards see a querying flag, so an event they fire on
  /// this machine is ignored and asking changes nothing. `otherwise` when the machine is busy on
  /// another thread and this thread may not wait.
  @usableFromInline
  func withGuardsEvaluable<R>(_ model: Model, otherwise: R, _ body: (Int32) -> R) -> R {
    func evaluate() -> R {
      let (from, wasQuerying) = locked(model) {
        let flags = model._$stateMachineStorage.slowPathFlags
        model._$stateMachineStorage.set(StateMachineStorage.queryingFlag, true)
        return (model._$stateMachineStorage.stateIndex, flags & StateMachineStorage.queryingFlag != 0)
      }
      let result = body(from)
      locked(model) { model._$stateMachineStorage.set(StateMachineStorage.queryingFlag, wasQuerying) }
      return result
    }
    switch admit(model, whileBusy: {}) {
    case .taken:
      let result = evaluate()
      _ = endRun(model, event: -1)
      return result
    case .busy(let here):
      return here ? evaluate() : otherwise
    }
  }

  /// Whether `event` would take a transition from `from`, running guards.
  @usableFromInline
  func canTake(_ event: Int32, from: Int32, _ model: Model) -> Bool {
    if let chart = compiled.chart { return chartCanTake(chart, event, model) }
    if isTerminated(model) { return false }
    if let answer = answerFromTable(slot(event, from)) { return answer }
    let candidates = compiled.candidateRows.range(state: from, event: event)
    return (try? selectCandidate(event, from: from, in: candidates, payload: nil, model)) != nil
  }

  /// Whether `model` is in `state`.
  @inlinable
  public func isInState(_ state: StateMachineStateID, on model: Model) -> Bool {
    guard state.definition == compiled.identity else { return false }
    if compiled.chart != nil { return isInChartState(state.index, on: model) }
    startIfNeeded(model)
    return locked(model) { model._$stateMachineStorage.stateIndex == state.index }
  }

  /// The name of `model`'s current state.
  @inlinable
  public func currentState(of model: Model) -> String {
    startIfNeeded(model)
    if let chart = compiled.chart { return chartState(of: model, chart) }
    return stateName(locked(model) { model._$stateMachineStorage.stateIndex })
  }

  /// The events that would take a transition now, in declaration order: one consistent answer,
  /// taken while the machine does not change.
  public func availableEvents(on model: Model) -> [String] {
    startIfNeeded(model)
    let available = withGuardsEvaluable(model, otherwise: nil) { from in
      compiled.events.indices.filter { canTake(Int32($0), from: from, model) }
    }
    if let available { return available.map { compiled.events[$0] } }
    // Busy on another thread: the transitions that need no guard.
    let from = locked(model) { model._$stateMachineStorage.stateIndex }
    return compiled.events.indices.filter { answerFromTable(slot(Int32($0), from)) == true }
      .map { compiled.events[$0] }
  }

  /// Whether `model`'s machine has terminated.
  public func isTerminated(_ model: Model) -> Bool {
    locked(model) { model._$stateMachineStorage.isTerminated }
  }

  /// Puts `model` into `state` without running callbacks: an explicit reset, which also ends a
  /// termination unless `state` is final. Observation hooks may fire events: they run to
  /// completion after the state is written.
  ///
  /// - Throws: ``StateMachineError/unknownState(_:)``, or ``StateMachineError/busy(_:)`` when
  ///   called while the machine runs a step (from one of its callbacks, say).
  public func restore(_ state: String, on model: Model) throws(StateMachineError) {
    if let chart = compiled.chart {
      try restoreChart(chart, parsing: state, on: model)
      return
    }
    guard let index = compiled.stateTable.index(of: state) else { throw .unknownState(state) }
    guard case .taken = admit(model, whileBusy: {}) else {
      trace("restoreState('\(state)') rejected: the machine is running a step")
      throw .busy("restoreState")
    }
    disarm(model)
    let isFinal = compiled.isFinal[Int(index)]
    model._$stateMachineWillChangeState()
    locked(model) {
      model._$stateMachineStorage.stateIndex = index
      model._$stateMachineStorage.isTerminated = isFinal
      model._$stateMachineStorage.set(StateMachineStorage.unstartedFlag | StateMachineStorage.restoredFlag, false)
    }
    model._$stateMachineDidChangeState()
    if !isFinal { arm(index, model) }
    if endRun(model, event: -1) { throw limitError(-1) }
  }

  // MARK: The full step

  /// Runs one event to completion, including the events queued meanwhile; or queues it if the
  /// machine is busy with a step of the calling thread.
  @inlinable
  func process(_ event: Int32, _ payload: (any Sendable)?, _ model: Model) -> StepOutcome {
    guard event >= 0, Int(event) < compiled.events.count else {
      return .rejected(rejectUnknown("#\(event)", model))
    }
    return run(event, payload, model, armedIn: nil)
  }

  /// Takes the machine and runs `event` as one run to completion, or queues it when the machine
  /// is busy with a step of the calling thread. `armedIn`, checked under the lock when the event
  /// arrives and again when it leaves the queue, tells a timeout or notification that its state
  /// was left meanwhile (then nothing happens).
  @inlinable
  func run(
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, armedIn: ArmedState?, external: Bool = false
  ) -> StepOutcome {
    let lock = model._$stateMachineLock
    // Why an event that found the machine busy was not queued.
    var ignoredBecause: String?
    let admission = admit(model) {
      if let armedIn, !armedIn.isCurrent(in: model._$stateMachineStorage) {
        ignoredBecause = "a timeout or notification of a state that was left"
        return
      }
      let isOwn = lock.map { ThreadSteps.owns($0) } ?? true
      if isOwn && model._$stateMachineStorage.slowPathFlags & StateMachineStorage.queryingFlag != 0 {
        ignoredBecause = "a guard evaluated by can()"
        return
      }
      model._$stateMachineStorage.enqueue(
        QueuedEvent(event: event, payload: payload, isOwn: isOwn, isExternal: external, armedIn: armedIn))
    }
    if case .busy = admission {
      if let ignoredBecause { return .rejected(.busy(ignoredBecause)) }
      trace("event '\(eventName(event))' queued: the machine is running a step")
      return .queued
    }
    if let armedIn, !locked(model, { armedIn.isCurrent(in: model._$stateMachineStorage) }) {
      _ = endRun(model, event: event)
      return .rejected(.busy("a timeout or notification of a state that was left"))
    }
    if locked(model, { model._$stateMachineStorage.isUnstarted }) { _ = enter(model) }
    let outcome: StepOutcome
    if let log = compiled.log {
      let start = ContinuousClock.now
      outcome = step(event, payload, model)
      log.write("[\(Model.self)] step '\(eventName(event))' took \(ContinuousClock.now - start)")
    } else {
      outcome = step(event, payload, model)
    }
    if endRun(model, event: event) { return .failed(limitError(event), transitionHappened: outcome.happened) }
    return outcome
  }

  /// The error for an event name the machine does not know; a terminated machine says so first
  /// (SEMANTICS step 1). Logged.
  @usableFromInline
  func rejectUnknown(_ name: String, _ model: Model) -> StateMachineError {
    let (terminated, state) = locked(model) {
      (model._$stateMachineStorage.isTerminated, model._$stateMachineStorage.stateIndex)
    }
    let error: StateMachineError
    if let definitionError {
      error = .invalidDefinition(definitionError)
    } else if terminated {
      error = .terminated(event: name, state: stateName(state))
    } else {
      error = .unknownEvent(name)
    }
    trace("event '\(name)' rejected: \(error)")
    return error
  }

  /// Writes a line to the verbose log, if there is one.
  @inlinable
  func trace(_ message: @autoclosure () -> String) {
    if let log = compiled.log { log.write("[\(Model.self)] " + message()) }
  }

  /// The first of `candidates` (those of (`from`, `event`)) whose guard passes; `nil` if every
  /// guard failed or there is none. Throws what a guard throws.
  @inlinable
  func selectCandidate(
    _ event: Int32, from: Int32, in candidates: Range<Int>, payload: (any Sendable)?, _ model: Model
  ) throws -> CompiledMachine<Model>.Candidate? {
    for index in candidates {
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

  /// One transition, steps 1–9 of SEMANTICS.md, on a machine this thread owns.
  @inlinable
  func step(_ event: Int32, _ payload: (any Sendable)?, _ model: Model) -> StepOutcome {
    let queued = locked(model) { model._$stateMachineStorage.queueCount }
    let outcome = attemptStep(event, payload, model)
    // A rejected or aborted step changed nothing: the events its guards or callbacks fired go too.
    if !outcome.happened { dropOwnQueued(after: queued, model) }
    return outcome
  }

  /// Steps 1–9, without the clean-up of ``step(_:_:_:)``.
  @inlinable
  func attemptStep(_ event: Int32, _ payload: (any Sendable)?, _ model: Model) -> StepOutcome {
    if let chart = compiled.chart {
      let start = locked(model) { PlannedStart(model, chart, postsStateNotifications: compiled.postsStateNotifications) }
      if let plan = chart.plans.plan(event: event, from: start.number) {
        return plannedStep(chart, plan, start, event, payload, model)
      }
      return chartStep(chart, event, payload, model)
    }
    let (from, terminated) = locked(model) {
      (model._$stateMachineStorage.stateIndex, model._$stateMachineStorage.isTerminated)
    }
    let eventName = compiled.events[Int(event)]
    trace("event '\(eventName)' in state '\(stateName(from))'")
    // 1. A terminated machine rejects everything.
    if let definitionError { return rejected(.invalidDefinition(definitionError)) }
    if terminated { return rejected(.terminated(event: eventName, state: stateName(from))) }
    // 2. Select the transition.
    let candidates = compiled.candidateRows.range(state: from, event: event)
    if candidates.isEmpty {
      return rejected(.noTransition(event: eventName, state: stateName(from)))
    }
    let selected: CompiledMachine<Model>.Candidate
    do {
      guard let candidate = try selectCandidate(event, from: from, in: candidates, payload: payload, model) else {
        return rejected(.guardsFailed(event: eventName, state: stateName(from)))
      }
      selected = candidate
    } catch {
      return failed(eventName, transitionHappened: false, error)
    }
    let to = selected.target >= 0 ? selected.target : from
    let isExternal = !selected.isInternal
    // The Transition is built once, up front, if any callback of the definition takes it; else
    // never (no callback asks). Read-only afterwards: no optional to fill in, no access checks.
    let built: Transition? =
      compiled.takesTransition
      ? Transition(event: eventName, from: compiled.states[Int(from)], to: compiled.states[Int(to)], payload: payload)
      : nil
    func transition() -> Transition {
      built ?? Transition(event: eventName, from: compiled.states[Int(from)], to: compiled.states[Int(to)], payload: payload)
    }
    // 3.–5. before callbacks, exit actions, the transition's action: a throw changes nothing.
    let announces = announces(model)
    do {
      for callback in compiled.beforeCallbacks[Int(event)] { try callback(model, transition) }
      if announces && !selected.terminates {
        announce(isExternal ? .exit : .internalTransition, from, event: event, payload: payload, model)
      }
      if isExternal {
        if !compiled.exitActions[Int(from)].isEmpty { trace("exit '\(stateName(from))'") }
        for action in compiled.exitActions[Int(from)] { try action(model, transition) }
      }
      try selected.action?(model, transition)
    } catch {
      return failed(eventName, transitionHappened: false, error)
    }
    // 6. The state is written; the old state's triggers are disarmed, the new one's armed.
    let terminates = selected.terminates || compiled.isFinal[Int(to)]
    write(to, model, terminating: terminates)
    trace("transition '\(stateName(from))' -> '\(stateName(to))' on '\(eventName)'")
    let extras = locked(model) { model._$stateMachineStorage.extras }
    if (isExternal || terminates) && extras != nil { disarm(model) }
    if isExternal && !terminates && !compiled.triggers[Int(to)].isEmpty { arm(to, model) }
    // 7.–8. entry actions, after callbacks: a throw skips the rest but the state stands.
    var failure: (any Error)?
    do {
      if isExternal {
        if announces { announce(.entry, to, event: event, payload: payload, model) }
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
    if let extras = extras ?? locked(model, { model._$stateMachineStorage.extras }) {
      publish(
        CompletedTransition(from: stateName(from), event: eventName, to: stateName(to), payload: payload),
        to: extras)
    }
    if let failure { return failed(eventName, transitionHappened: true, failure) }
    return .accepted
  }

  @inlinable
  func rejected(_ error: StateMachineError) -> StepOutcome {
    trace("rejected: \(error)")
    return .rejected(error)
  }

  /// Drops the events that the running step queued itself after the first `count`: those of a
  /// step that changed nothing. The log says so.
  @inlinable
  func dropOwnQueued(after count: Int, _ model: Model) {
    let dropped = locked(model) { model._$stateMachineStorage.dropOwnQueued(after: count) }
    if dropped > 0 { trace("dropped \(dropped) event(s) queued by a step that changed nothing") }
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
      guard let index = eventIndex(name) else { throw .unknownEvent(name) }
      locked(model) {
        model._$stateMachineStorage.enqueue(QueuedEvent(event: index, payload: payload, isOwn: true))
      }
    }
  }
}
