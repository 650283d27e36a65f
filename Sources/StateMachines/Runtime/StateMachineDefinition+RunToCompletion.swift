// Run to completion (SEMANTICS.md): an event is admitted, or queued while the machine is busy
// with a step of the calling thread; its step runs; then the events queued meanwhile run, each as
// a step of its own.

import Foundation

extension StateMachineDefinition {
  /// Takes the machine and runs `event` as one run to completion: its ``step(_:_:_:)``, then the
  /// events queued meanwhile (``endRun(_:event:)``). Or queues it when the machine is busy with a
  /// step of the calling thread. `armedIn`, checked under the lock when the event arrives and
  /// again when it leaves the queue, tells a timeout or notification that its state was left
  /// meanwhile (then nothing happens). `external`: posted (S13), it waits for the internal queue.
  /// `source`: where the event came from, for inspection records.
  @inlinable
  func runToCompletion(
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, armedIn: ArmedState? = nil, external: Bool = false,
    source: InspectionSource = .api
  ) -> StepOutcome {
    guard event >= 0, Int(event) < compiled.events.count else {
      return .rejected(rejectUnknown("#\(event)", model, source: source))
    }
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
        QueuedEvent(
          event: event, payload: payload, isOwn: isOwn, isExternal: external, armedIn: armedIn,
          source: source == .api ? .queue : source))
    }
    if case .busy = admission {
      if let ignoredBecause {
        noteRejection(event, source: source, payload: payload, .busy(ignoredBecause), model)
        return .rejected(.busy(ignoredBecause))
      }
      trace("event '\(eventName(event))' queued: the machine is running a step")
      return .queued
    }
    if let armedIn, !locked(model, { armedIn.isCurrent(in: model._$stateMachineStorage) }) {
      let stale = StateMachineError.busy("a timeout or notification of a state that was left")
      noteRejection(event, source: source, payload: payload, stale, model)
      _ = endRun(model, event: event)
      return .rejected(stale)
    }
    // One read for both: a machine to start or a store-managed one (P13), and whether the object
    // was ever inspected (from the storage, so that an object nobody inspects touches no extras).
    let (flags, mayBeInspected) = locked(model) {
      (model._$stateMachineStorage.slowPathFlags, model._$stateMachineStorage.mayBeInspected)
    }
    // An inspected run goes through a function of its own, so that nothing of it stays live
    // across the step of an object nobody inspects.
    let (outcome, refused) =
      mayBeInspected
      ? inspectedStep(event, payload, model, flags: flags, source: source)
      : admittedStep(event, payload, model, flags: flags)
    if endRun(model, event: event), !refused {
      return .failed(limitError(event), transitionHappened: outcome.happened)
    }
    return outcome
  }

  /// The step of an admitted event: first the start of a machine that has not started, or the
  /// refusal of a store-managed one (P13), as `flags` says; then the step. `refused`: the
  /// event never reached a step.
  @inlinable @inline(__always)
  func admittedStep(
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, flags: UInt8
  ) -> (outcome: StepOutcome, refused: Bool) {
    if flags & StateMachineStorage.startOrStoreFlags != 0, let refused = startOrRefuse(event, model) {
      return (refused, true)
    }
    if compiled.forwardsEvents { forwardToInvocations(event, payload, model) }
    guard let log = compiled.log else { return (step(event, payload, model), false) }
    let start = ContinuousClock.now
    let outcome = step(event, payload, model)
    log.write("[\(Model.self)] step '\(eventName(event))' took \(ContinuousClock.now - start)")
    return (outcome, false)
  }

  /// ``admittedStep(_:_:_:flags:)`` with its inspection records: the event, then the step or
  /// the rejection (INSPECTOR.md B.3).
  @usableFromInline @inline(never)
  func inspectedStep(
    _ event: Int32, _ payload: (any Sendable)?, _ model: Model, flags: UInt8, source: InspectionSource
  ) -> (outcome: StepOutcome, refused: Bool) {
    let inspected = beginInspectedRun(event, source: source, payload: payload, model)
    let result = admittedStep(event, payload, model, flags: flags)
    if let inspected { endInspectedRun(event, source: source, payload: payload, result.outcome, model, inspected) }
    return result
  }

  /// The error for an event name the machine does not know; a terminated machine says so first
  /// (SEMANTICS step 1). Logged.
  @usableFromInline
  func rejectUnknown(
    _ name: String, _ model: Model, source: InspectionSource = .api, payload: (any Sendable)? = nil
  ) -> StateMachineError {
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
    if let inspection = listeningInspection(of: model) {
      recordRejection(name, source: source, payload: payload, error, model, inspection)
    }
    return error
  }

  /// Writes a line to the verbose log, if there is one.
  @inlinable
  func trace(_ message: @autoclosure () -> String) {
    if let log = compiled.log { log.write("[\(Model.self)] " + message()) }
  }

  /// One step of `event`, on a machine this thread owns: the engine's step
  /// (``engineStep(_:_:_:)``); when it changed nothing, the events its guards or callbacks
  /// queued are dropped with it.
  @inlinable @inline(__always)
  func step(_ event: Int32, _ payload: (any Sendable)?, _ model: Model) -> StepOutcome {
    let queued = locked(model) { model._$stateMachineStorage.queueCount }
    // A flat machine's step directly: the engine's switch is a call of its own.
    let outcome: StepOutcome
    if case .flat = compiled.engine {
      outcome = flatStep(event, payload, model)
    } else {
      outcome = engineStep(event, payload, model)
    }
    // A rejected or aborted step changed nothing: the events its guards or callbacks fired go too.
    if !outcome.happened { dropOwnQueued(after: queued, model) }
    if case .failed(let error, _) = outcome { recordStoreStepFailure(error, model) }
    return outcome
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
        model._$stateMachineStorage.enqueue(QueuedEvent(event: index, payload: payload, isOwn: true, source: .queue))
      }
    }
  }
}
