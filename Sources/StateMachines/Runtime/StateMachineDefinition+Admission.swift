// Admission and locking: who may run a step of a machine, and the run-to-completion queue.
//
// Concurrency (see `StateMachineLock`): for a `Sendable` object every access to the storage
// happens under its lock, and a step owns the machine through the busy flag while its callbacks
// run outside the lock. An object without a lock is used by one thread (or actor) at a time.

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
  /// skips both checks (the second reads the object's definition, a lazy static for a generated
  /// class): generated members pass it, and the object's own name lookups, whose object is driven
  /// by this definition and whose ID this definition made, by construction. Skipping the first
  /// too keeps one value less alive in a loop of generated calls, which spares the fast tier a spill.
  @inlinable @inline(__always)
  func accepts(_ event: StateMachineEventID, on model: Model, modelChecked: Bool = false) -> Bool {
    modelChecked || (event.definition == compiled.identity && model.stateMachineDefinition === self)
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

  /// Runs the queued events, each as its own step, and starts the invokes of the states entered
  /// (each time no internal event waits); errors of queued events go to the log. Then releases
  /// the machine.
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
      // The macrostep has ended when no internal event waits: its invokes start (Invoke I2).
      if let ready = takeReadyInvocations(model, afterEvent: event >= 0) {
        lock?.unlock()
        startInvocations(ready, model)
        continue
      }
      guard let next = model._$stateMachineStorage.dequeue() else {
        model._$stateMachineStorage.isBusy = false
        // Invokes of a `restoreState` wait for the next event's run: the flag leads it here.
        model._$stateMachineStorage.set(StateMachineStorage.queuedFlag, hasWaitingInvocations(model))
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
        noteRejection(
          next.event, source: next.source, payload: next.payload,
          .busy("a timeout or notification of a state that was left"), model)
        continue
      }
      // Read with the queue, as in `runToCompletion`.
      let mayBeInspected = model._$stateMachineStorage.mayBeInspected
      lock?.unlock()
      let inspected =
        mayBeInspected ? beginInspectedRun(next.event, source: next.source, payload: next.payload, model) : nil
      if next.isOwn { steps += 1 }
      // Events the machine's own callbacks fired are internal: not forwarded (I13).
      if compiled.forwardsEvents && (!next.isOwn || next.isExternal) {
        forwardToInvocations(next.event, next.payload, model)
      }
      let outcome = step(next.event, next.payload, model, noting: inspected != nil)
      if case .failed(let error, _) = outcome {
        trace("queued event '\(eventName(next.event))' failed: \(error)")
      }
      if let inspected {
        endInspectedRun(next.event, source: next.source, payload: next.payload, outcome, model, inspected)
      }
    }
  }
}
