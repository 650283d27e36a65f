// The run loop (the Semantics article): an event is admitted, or queued while the machine is busy
// with a step of the calling thread; its step runs; then the events queued meanwhile run, each as
// a step of its own.
//
// Concurrency (see `StateMachineLock`): for a `Sendable` object every access to the storage
// happens under its lock, and a step owns the machine through the busy flag while its callbacks
// run outside the lock. An object without a lock is used by one thread (or actor) at a time.

import Foundation

/// What ``admit(_:_:whileBusy:)`` found.
@usableFromInline
enum Admission {
  /// The caller now owns the machine for a step and must end it with `endRun`.
  case taken
  /// The machine is busy and the caller must not wait for it: it runs a step itself. `here`:
  /// the busy step is the caller's own (on this thread).
  case busy(here: Bool)
}

/// The run loop of every machine (the Semantics article): it admits an event or queues it, runs
/// it to completion as one step of the machine's engine (`FlatEngine`, `StatechartEngine`), then
/// runs the events queued meanwhile, each as a step of its own.
///
/// A namespace of static functions over the definition they run, as the engines are.
@usableFromInline
enum RunLoop<Model: StateMachineObject> {
  /// Takes the machine for a step. If it is busy: when the calling thread is itself running a
  /// step (of any machine), runs `whileBusy` under the lock (to queue an event) and returns
  /// `.busy`; otherwise waits until the machine is idle. A thread that owns a machine therefore
  /// never waits for another one, and no pattern of callbacks can deadlock.
  @inlinable
  static func admit(_ definition: StateMachineDefinition<Model>, _ model: Model, whileBusy: () -> Void) -> Admission {
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
  /// releases the machine. Returns whether the run hit the step limit (see ``definition.limitError(_:)``).
  @inlinable
  static func endRun(_ definition: StateMachineDefinition<Model>, _ model: Model, event: Int32) -> Bool {
    let lock = model._$stateMachineLock
    lock?.lock()
    if !model._$stateMachineStorage.hasQueuedEvents {
      model._$stateMachineStorage.isBusy = false
      lock?.unlock()
      if lock != nil { ThreadSteps.pop() }
      return false
    }
    lock?.unlock()
    return drainQueue(definition, model, event: event)
  }

  /// Runs the queued events, each as its own step, and starts the invokes of the states entered
  /// (each time no internal event waits); errors of queued events go to the log. Then releases
  /// the machine.
  ///
  /// The step limit counts the steps of this run to completion: the first event and the events
  /// queued by its steps (transitively). Past it, those queued events are dropped and logged.
  /// Events that other threads queued while the machine was busy are not part of this run: they
  /// always run, exactly once, and do not count.
  @usableFromInline @inline(never)
  static func drainQueue(_ definition: StateMachineDefinition<Model>, _ model: Model, event: Int32) -> Bool {
    let lock = model._$stateMachineLock
    var steps = 1
    var hitLimit = false
    while true {
      lock?.lock()
      // The macrostep has ended when no internal event waits: its invokes start (Invoke I2).
      if let ready = Invocations.takeReadyInvocations(definition, model, afterEvent: event >= 0) {
        lock?.unlock()
        Invocations.startInvocations(definition, ready, model)
        continue
      }
      guard let next = model._$stateMachineStorage.dequeue() else {
        model._$stateMachineStorage.isBusy = false
        // Invokes of a `restoreState` wait for the next event's run: the flag leads it here.
        model._$stateMachineStorage.set(StateMachineStorage.queuedFlag, Invocations.hasWaitingInvocations(definition, model))
        lock?.unlock()
        if lock != nil { ThreadSteps.pop() }
        return hitLimit
      }
      if next.isOwn && steps >= definition.compiled.maxSteps {
        let dropped = 1 + model._$stateMachineStorage.dropOwnQueued(after: 0)
        lock?.unlock()
        (definition.compiled.log ?? .standardError).write(
          "[\(Model.self)] \(definition.limitError(event)); dropped \(dropped) queued event(s), the first '\(definition.eventName(next.event))'"
        )
        hitLimit = true
        continue
      }
      if let armedIn = next.armedIn, !armedIn.isCurrent(in: model._$stateMachineStorage) {
        lock?.unlock()
        definition.trace(
          "queued event '\(definition.eventName(next.event))' dropped: a timeout or notification of a state that was left"
        )
        Inspection.noteRejection(definition, 
          next.event, source: next.source, payload: next.payload,
          .busy("a timeout or notification of a state that was left"), model)
        continue
      }
      // Read with the queue, as in `runToCompletion`.
      let mayBeInspected = model._$stateMachineStorage.mayBeInspected
      lock?.unlock()
      let inspected =
        mayBeInspected
        ? Inspection.beginInspectedRun(definition, next.event, source: next.source, payload: next.payload, model) : nil
      if next.isOwn { steps += 1 }
      // Events the machine's own callbacks fired are internal: not forwarded (I13).
      if definition.compiled.forwardsEvents && (!next.isOwn || next.isExternal) {
        Invocations.forwardToInvocations(definition, next.event, next.payload, model)
      }
      let outcome = step(definition, next.event, next.payload, model, noting: inspected != nil)
      if case .failed(let error, _) = outcome {
        definition.trace("queued event '\(definition.eventName(next.event))' failed: \(error)")
      }
      if let inspected {
        Inspection.endInspectedRun(definition, next.event, source: next.source, payload: next.payload, outcome, model, inspected)
      }
    }
  }
}

extension RunLoop {
  /// Takes the machine and runs `event` as one run to completion: its ``step(_:_:_:_:)``, then the
  /// events queued meanwhile (``endRun(_:_:event:)``). Or queues it when the machine is busy with a
  /// step of the calling thread. `armedIn`, checked under the lock when the event arrives and
  /// again when it leaves the queue, tells a timeout or notification that its state was left
  /// meanwhile (then nothing happens). `external`: posted (S13), it waits for the internal queue.
  @inlinable
  static func runToCompletion(
    _ definition: StateMachineDefinition<Model>,
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, armedIn: ArmedState? = nil, external: Bool = false
  ) -> StepOutcome {
    // Code's events (`.api`) have a function of their own: a source passed on every event costs
    // the caller three stores and the run a register (Benchmarks/README.md, "Event source not
    // passed").
    runToCompletion(definition, event, payload, model, armedIn: armedIn, external: external, from: .api)
  }

  /// ``runToCompletion(_:_:_:_:armedIn:external:)`` of an event from `source` (a trigger, a post,
  /// an invocation, a send), as inspection records say.
  @inlinable
  static func runToCompletion(
    _ definition: StateMachineDefinition<Model>,
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, armedIn: ArmedState? = nil, external: Bool = false,
    source: InspectionSource
  ) -> StepOutcome {
    runToCompletion(definition, event, payload, model, armedIn: armedIn, external: external, from: source)
  }

  /// The body of both: `source` is where the event came from, for inspection records.
  @inlinable @inline(__always)
  static func runToCompletion(
    _ definition: StateMachineDefinition<Model>,
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, armedIn: ArmedState?, external: Bool,
    from source: InspectionSource
  ) -> StepOutcome {
    guard event >= 0, Int(event) < definition.compiled.events.count else {
      return .rejected(definition.rejectUnknown("#\(event)", model, source: source))
    }
    let lock = model._$stateMachineLock
    // Why an event that found the machine busy was not queued.
    var ignoredBecause: String?
    let admission = admit(definition, model) {
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
        QueuedEvent(
          event: event, payload: payload, isOwn: isOwn, isExternal: external, armedIn: armedIn,
          source: source == .api ? .queue : source))
    }
    if case .busy = admission {
      if let ignoredBecause {
        Inspection.noteRejection(definition, event, source: source, payload: payload, .busy(ignoredBecause), model)
        return .rejected(.busy(ignoredBecause))
      }
      definition.trace("event '\(definition.eventName(event))' queued: the machine is running a step")
      return .queued
    }
    if let armedIn, !definition.locked(model, { armedIn.isCurrent(in: model._$stateMachineStorage) }) {
      let stale = StateMachineError.busy("a timeout or notification of a state that was left")
      Inspection.noteRejection(definition, event, source: source, payload: payload, stale, model)
      _ = endRun(definition, model, event: event)
      return .rejected(stale)
    }
    // One test of the flags for the rare cases: a machine to start or a store-managed one (P13),
    // an object ever inspected. So a run of an object nobody inspects pays nothing for inspection.
    let flags = definition.locked(model) { model._$stateMachineStorage.slowPathFlags }
    if flags & StateMachineStorage.unusualRunFlags != 0,
      let run = unusualStep(definition, event, payload, model, flags: flags, source: source)
    {
      if endRun(definition, model, event: event), !run.refused {
        return .failed(definition.limitError(event), transitionHappened: run.outcome.happened)
      }
      return run.outcome
    }
    // None of `unusualRunFlags` is set: no start, no refusal.
    let outcome = admittedStep(definition, event, payload, model, flags: 0).outcome
    if endRun(definition, model, event: event) {
      return .failed(definition.limitError(event), transitionHappened: outcome.happened)
    }
    return outcome
  }

  /// The step of an admitted event: first the start of a machine that has not started, or the
  /// refusal of a store-managed one (P13), as `flags` says; then the step (that of an inspected
  /// run if `noting`, see ``step(_:_:_:_:noting:)``). `refused`: the event never reached a step.
  @inlinable @inline(__always)
  static func admittedStep(
    _ definition: StateMachineDefinition<Model>,
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, flags: UInt16, noting: Bool = false
  ) -> (outcome: StepOutcome, refused: Bool) {
    if flags & StateMachineStorage.startOrStoreFlags != 0, let refused = startOrRefuse(definition, event, model) {
      return (refused, true)
    }
    if definition.compiled.forwardsEvents { Invocations.forwardToInvocations(definition, event, payload, model) }
    guard let log = definition.compiled.log else {
      return (step(definition, event, payload, model, noting: noting), false)
    }
    let start = ContinuousClock.now
    let outcome = step(definition, event, payload, model, noting: noting)
    log.write("[\(Model.self)] step '\(definition.eventName(event))' took \(ContinuousClock.now - start)")
    return (outcome, false)
  }

  /// The run of an event whose `flags` have one of ``StateMachineStorage/unusualRunFlags``: the
  /// inspected step of an object ever inspected, or the refusal of a store-managed object
  /// outside a store step (P13). `nil`: the event takes the common step (after the start of a
  /// machine that had not started).
  @usableFromInline @inline(never)
  static func unusualStep(
    _ definition: StateMachineDefinition<Model>,
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, flags: UInt16, source: InspectionSource
  ) -> (outcome: StepOutcome, refused: Bool)? {
    if flags & StateMachineStorage.inspectedFlag != 0 {
      return inspectedStep(definition, event, payload, model, flags: flags, source: source)
    }
    return startOrRefuse(definition, event, model).map { ($0, true) }
  }

  /// ``admittedStep(_:_:_:_:flags:noting:)`` with its inspection records: the event, then the
  /// step or the rejection (Inspecting B.3). While a stream listens, the step notes what it
  /// does.
  static func inspectedStep(
    _ definition: StateMachineDefinition<Model>,
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, flags: UInt16, source: InspectionSource
  ) -> (outcome: StepOutcome, refused: Bool) {
    let inspected = Inspection.beginInspectedRun(definition, event, source: source, payload: payload, model)
    let result = admittedStep(definition, event, payload, model, flags: flags, noting: inspected != nil)
    if let inspected {
      Inspection.endInspectedRun(definition, event, source: source, payload: payload, result.outcome, model, inspected)
    }
    return result
  }

  /// One step of `event`, on a machine this thread owns: the engine's step
  /// (``engineStep(_:_:_:_:)``); when it changed nothing, the events its guards or callbacks
  /// queued are dropped with it. `noting`: the step of an inspected run, which notes what it
  /// does in the run's capture: a statechart's full step (never a planned one), or
  /// `FlatEngine.notedStep`. The callers that know they run no inspected step leave it
  /// `false`, so that their step does not test it.
  @inlinable @inline(__always)
  static func step(
    _ definition: StateMachineDefinition<Model>, _ event: Int32, _ payload: (any Sendable)?, _ model: Model,
    noting: Bool = false
  ) -> StepOutcome {
    cleanedStep(definition, model) {
      // A flat machine's step directly: the engine's switch is a call of its own.
      if case .flat = definition.compiled.engine {
        return noting
          ? FlatEngine.notedStep(definition, event, payload, model) : FlatEngine.step(definition, event, payload, model)
      } else if noting, case .statechart(let chart) = definition.compiled.engine {
        return StatechartEngine.chartStep(definition, chart, event, payload, model)
      }
      return engineStep(definition, event, payload, model)
    }
  }

  /// The step of the definition's engine, without the clean-up of ``step(_:_:_:_:noting:)``: a
  /// statechart's planned step where one was planned for the configuration, else its full step
  /// (the Hierarchy article), or the flat step. Inlined into the step, so that the outcome is not
  /// copied out of a call, and the chart read unretained, so that a step neither retains nor
  /// releases it (Benchmarks/README.md, "Engine step inlined").
  @inlinable @inline(__always)
  static func engineStep(
    _ definition: StateMachineDefinition<Model>, _ event: Int32, _ payload: (any Sendable)?, _ model: Model
  ) -> StepOutcome {
    guard let unretainedChart = definition.compiled.unretainedChart else {
      return FlatEngine.step(definition, event, payload, model)
    }
    return unretainedChart._withUnsafeGuaranteedRef { chart in
      // (Not for an inspected run: it takes the full step, see `step(definition, _:_:_:noting:)`.)
      let start = definition.locked(model) {
        PlannedStart(model, chart, postsStateNotifications: definition.compiled.postsStateNotifications)
      }
      if var plan = chart.plans.plan(event: event, from: start.number) {
        // A slot that enters through a history takes the candidates of what it recorded (S15).
        if chart.plans.entersHistory, let entered = chart.plans.historyEntered(by: plan) {
          let record = definition.locked(model) { start.extras?.chart?.history[entered.target] }
          guard let resolved = chart.plans.resolved(plan, entered, record: record) else {
            return StatechartEngine.chartStep(definition, chart, event, payload, model)
          }
          plan = resolved
        }
        return StatechartEngine.plannedStep(definition, chart, plan, start, event, payload, model)
      }
      return StatechartEngine.chartStep(definition, chart, event, payload, model)
    }
  }

  /// Runs `engineStep`, the step of an engine, with the clean-up of ``step(_:_:_:_:noting:)``.
  @inlinable @inline(__always)
  static func cleanedStep(_ definition: StateMachineDefinition<Model>, _ model: Model, _ engineStep: () -> StepOutcome)
    -> StepOutcome
  {
    let queued = definition.locked(model) { model._$stateMachineStorage.queueCount }
    let outcome = engineStep()
    // A rejected or aborted step changed nothing: the events its guards or callbacks fired go too.
    if !outcome.happened { dropOwnQueued(definition, after: queued, model) }
    if case .failed(let error, _) = outcome { StoreStepRecorder.recordStoreStepFailure(definition, error, model) }
    return outcome
  }

  /// Drops the events that the running step queued itself after the first `count`: those of a
  /// step that changed nothing. The log says so.
  @inlinable
  static func dropOwnQueued(_ definition: StateMachineDefinition<Model>, after count: Int, _ model: Model) {
    let dropped = definition.locked(model) { model._$stateMachineStorage.dropOwnQueued(after: count) }
    if dropped > 0 { definition.trace("dropped \(dropped) event(s) queued by a step that changed nothing") }
  }

  /// Queues the event an entry action asked for.
  @inlinable
  static func enqueue(_ definition: StateMachineDefinition<Model>, _ next: NextStep, _ model: Model)
    throws(StateMachineError)
  {
    switch next {
    case .fire(let name, let payload):
      guard let index = definition.eventIndex(name) else { throw .unknownEvent(name) }
      definition.locked(model) {
        model._$stateMachineStorage.enqueue(QueuedEvent(event: index, payload: payload, isOwn: true, source: .queue))
      }
    }
  }
}

extension StateMachineStorage {
  /// The flags that send a run to completion through ``startOrRefuse(_:_:_:)``.
  @usableFromInline static var startOrStoreFlags: UInt16 { unstartedFlag | storeManagedFlag }
  /// The flags that send a run to completion through
  /// ``unusualStep(_:_:_:_:flags:source:)``: those, and an inspected object.
  @usableFromInline static var unusualRunFlags: UInt16 { startOrStoreFlags | inspectedFlag }
}

extension RunLoop {
  /// Before the first step of a run to completion: refuses an event on a store-managed object
  /// outside a store step (P13), or enters a machine that has not started. Returns the refusal.
  @usableFromInline
  static func startOrRefuse(_ definition: StateMachineDefinition<Model>, _ event: Int32, _ model: Model) -> StepOutcome?
  {
    let (unstarted, refused) = definition.locked(model) {
      let storage = model._$stateMachineStorage
      return (
        storage.isUnstarted,
        storage.slowPathFlags & StateMachineStorage.storeManagedFlag != 0 && storage.extras?.storeRecorder == nil
      )
    }
    if refused { return definition.rejected(.storeManaged(event: definition.eventName(event))) }
    if unstarted { _ = enter(definition, model) }
    return nil
  }
}
