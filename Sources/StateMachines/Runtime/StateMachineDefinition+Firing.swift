// Firing an event, from the members `@StateMachine` generates to the tiers (Semantics §Firing
// an event). The entry points are the `_$`-prefixed statics that generated event methods and
// queries call (not part of the documented API). The tiers are inlinable, so that a generated
// event method is specialised for its class, and chosen per (state, event) slot when the
// definition is compiled:
// - fast: the transition runs no code; a table load and a store;
// - light: it runs only plain `before`/`after` callbacks and exit/entry actions; no `Transition`
//   is built;
// - full: everything else (guards, actions, entry/exit, observers, triggers, the log): a run to
//   completion (`RunLoop.swift`).

extension StateMachineDefinition {
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
      $0.fire(event, model, modelChecked: true, soleAfterInPlace: true)
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
}

extension StateMachineDefinition {
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
    fire(event, model, modelChecked: false, soleAfterInPlace: true)
  }

  /// ``fire(_:on:)``. `soleAfterInPlace`: whether a light transition whose only code is one
  /// `after` callback runs here (``fireSoleAfter(_:_:_:)``) rather than in ``fireSlot(_:_:_:)``:
  /// `true` for a generated method; `false` where this is inlined into a larger path (`fire` by
  /// name), which its size would keep from being inlined in turn.
  @inlinable @inline(__always)
  func fire(_ event: StateMachineEventID, _ model: Model, modelChecked: Bool, soleAfterInPlace: Bool) -> Bool {
    guard accepts(event, on: model, modelChecked: modelChecked) else { return rejectForeign() }
    // The lock is `nil` or not for every object of a class, so a class without one has no lock
    // code here, and a `Sendable` one takes the same fast path under its lock.
    let lock = model._$stateMachineLock
    lock?.lock()
    guard let slot = tierSlot(event, model) else {
      lock?.unlock()
      return fireFlagged(event.definition, event.index, model)
    }
    if slot.isFast {
      model._$stateMachineStorage.stateIndex = slot.fastTarget
      lock?.unlock()
      return true
    }
    if slot == .none {
      lock?.unlock()
      return false
    }
    // A generated method's ID carries the transition of its only source's slot if that one's
    // only code is an `after` callback: then it is the slot here.
    if soleAfterInPlace, modelChecked, event.soleAfterTransition != 0 {
      return runSoleAfter(carriedSoleAfter(event), event.index, model)
    }
    if soleAfterInPlace, slot.rawValue <= compiled.soleAfterSlotLimit {
      return fireSoleAfter(slot, event.index, model)
    }
    // The full step of an object without a lock is called from here, not through `fireSlot`:
    // one call less (Benchmarks/README.md, "Full step called from the inlined part").
    if lock == nil, slot == .full { return fireIdle(event.index, model) }
    return fireSlot(slot, event.index, model)
  }

  /// Runs the light transition of `slot`, whose only code is one `after` callback (the commonest
  /// light transition), on an object whose flags the inlined part of ``fire(_:on:)`` found clear,
  /// under its lock if it has one. Inlined there for a generated method, so that the event costs
  /// no call into the library and no saved registers; ``fireSlot(_:_:_:)`` runs it otherwise.
  @inlinable @inline(__always)
  func fireSoleAfter(_ slot: TransitionSlot, _ event: Int32, _ model: Model) -> Bool {
    runSoleAfter(compiled.lightTransitions.withUnsafeBufferPointer { $0[slot.lightIndex] }, event, model)
  }

  /// The transition a generated method's ID carries (``StateMachineEventID/soleAfterTransition``,
  /// not 0: the bits of an unretained reference, which the definition keeps alive).
  @inlinable @inline(__always)
  func carriedSoleAfter(_ event: StateMachineEventID) -> Unmanaged<LightTransition<Model>> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: event.soleAfterTransition).unsafelyUnwrapped)
  }

  /// What ``fireSoleAfter(_:_:_:)`` runs: `light`, whose only code is one `after` callback, found
  /// from its slot or carried by the event's ID.
  @inlinable @inline(__always)
  func runSoleAfter(_ light: Unmanaged<LightTransition<Model>>, _ event: Int32, _ model: Model) -> Bool {
    // The state is written first (the light tier is only taken by objects whose state hooks run
    // no code, ``StateMachineObject/_$stateMachineHasStateHooks``).
    model._$stateMachineStorage.stateIndex = light._withUnsafeGuaranteedRef { $0.target }
    takeForLightStep(model)
    // An error does not undo the transition.
    try? light._withUnsafeGuaranteedRef { $0.soleAfterCallback.unsafelyUnwrapped }
      ._withUnsafeGuaranteedRef { try $0.body(model) }
    endLightStep(event, model)
    return true
  }

  /// Ends a light step: ``RunLoop/endRun(_:_:event:)``, except that an object without a lock
  /// whose flags hold the busy mark alone (nothing queued, nothing set by the callbacks) only
  /// clears it: one compare and a store (Benchmarks/README.md, "Light step's end").
  @inlinable @inline(__always)
  func endLightStep(_ event: Int32, _ model: Model) {
    if model._$stateMachineLock == nil, model._$stateMachineStorage.slowPathFlags == StateMachineStorage.busyFlag {
      model._$stateMachineStorage.slowPathFlags = 0
    } else {
      _ = RunLoop.endRun(self, model, event: event)
    }
  }

  /// Takes the machine for a light step, where this thread may write the storage (no lock, or
  /// under it): sets the busy mark, then releases the lock, if there is one, and records on
  /// `ThreadSteps` that this thread owns the machine, so that an event its callbacks fire is
  /// queued rather than waited for.
  @inlinable @inline(__always)
  func takeForLightStep(_ model: Model) {
    model._$stateMachineStorage.isBusy = true
    if let lock = model._$stateMachineLock {
      lock.unlock()
      ThreadSteps.push(lock)
    }
  }

  /// The fast-table slot of `event` in `model`'s current state, or `nil` when the object must
  /// take the full step whatever the slot says (a flag of ``StateMachineStorage/slowPathFlags``,
  /// or state hooks). Read where this thread may read the storage: no lock, or under it.
  @inlinable @inline(__always)
  func tierSlot(_ event: StateMachineEventID, _ model: Model) -> TransitionSlot? {
    guard model._$stateMachineStorage.slowPathFlags == 0, !model._$stateMachineHasStateHooks else { return nil }
    return fastSlot(event, model._$stateMachineStorage.stateIndex)
  }

  /// The light tier or the full step of `slot`, which the inlined part of ``fire(_:on:)`` read
  /// under the object's lock, if it has one, and still holds: what that part checked (the ID, the
  /// flags) is not checked again, and the call passes three words. The callbacks of the light
  /// tier run outside the lock, under the busy mark.
  @inlinable @inline(never)
  func fireSlot(_ slot: TransitionSlot, _ event: Int32, _ model: Model) -> Bool {
    guard slot.isLight else {
      // A full slot of an object with a lock (the inlined part calls `fireIdle` for the others).
      model._$stateMachineLock?.unlock()
      return fireFully(event, model)
    }
    if slot.rawValue <= compiled.soleAfterSlotLimit { return fireSoleAfter(slot, event, model) }
    let light = compiled.lightTransitions[slot.lightIndex]
    takeForLightStep(model)
    let happened = fireLight(light, model)
    endLightStep(event, model)
    return happened
  }

  /// Fires `event` on `model` with a payload that callbacks, guards and actions receive.
  @inlinable
  public func fire(_ event: StateMachineEventID, payload: (any Sendable)?, on model: Model) -> Bool {
    guard let payload else { return fire(event, on: model) }
    guard accepts(event, on: model) else { return rejectForeign() }
    return RunLoop.runToCompletion(self, event.index, payload, model).happened
  }

  /// Fires `event` on `model` and throws why it was rejected or failed.
  @inlinable
  public func fireOrThrow(
    _ event: StateMachineEventID, payload: (any Sendable)? = nil, on model: Model
  ) throws(StateMachineError) {
    guard accepts(event, on: model) else {
      _ = rejectForeign()
      throw .foreignID
    }
    switch RunLoop.runToCompletion(self, event.index, payload, model) {
    case .accepted, .queued: return
    case .rejected(let error), .failed(let error, _): throw error
    }
  }

  /// An ID of another definition, or a model that another definition drives: rejected, logged.
  @usableFromInline @inline(never)
  func rejectForeign() -> Bool {
    trace("rejected: \(StateMachineError.foreignID)")
    return false
  }

  /// The fast-table value of `event` in `state`; an event with one source state compares
  /// instead of loading.
  @inlinable @inline(__always)
  func fastSlot(_ event: StateMachineEventID, _ state: Int32) -> TransitionSlot {
    if event.onlySource >= 0 {
      return state == event.onlySource ? event.onlySourceSlot : .none
    }
    return compiled.fastSlots[Int(event.column) &+ Int(state)]
  }

  /// The full step of an object whose flags or state hooks the inlined part of ``fire(_:on:)``
  /// found set (busy, queued, not started, a store step, `@Observable`).
  ///
  /// It checks the ID's definition, which a generated member does not need (its ID is its
  /// definition's by construction), for Swift's LLVM function merging: that pass folds functions
  /// that differ in at most four constants into one that takes them as arguments, and a class's
  /// generated event methods differ only in the addresses of their ID's fields, four of which the
  /// inlined part reads. Merged, a method called out of line ran a thunk and kept the four
  /// addresses in saved registers across the IDs' `swift_once`; the definition, a fifth, keeps
  /// them apart. The call takes the two fields it needs, not the whole ID, and runs what
  /// ``fireFully(_:_:)`` does, without a second call: the whole ID, four words, kept its words
  /// packed for the call in registers or on the stack across a loop of generated methods
  /// (Benchmarks/README.md, "Fifth constant against function merging").
  @inlinable @inline(never)
  func fireFlagged(_ definition: ObjectIdentifier, _ event: Int32, _ model: Model) -> Bool {
    guard definition == compiled.identity else { return rejectForeign() }
    return RunLoop.runToCompletion(self, event, noPayload, model).happened
  }

  /// Everything the fast tiers do not handle: kept out of line so they stay small.
  @inlinable @inline(never)
  func fireFully(_ event: Int32, _ model: Model) -> Bool {
    RunLoop.runToCompletion(self, event, noPayload, model).happened
  }

  /// ``fireFully(_:_:)`` for an object without a lock whose flags the inlined part of
  /// ``fire(_:on:)`` found clear: the machine is idle and started, nothing is queued and no store
  /// step runs, so the run to completion is the step between taking and releasing the busy mark.
  @inlinable @inline(never)
  func fireIdle(_ event: Int32, _ model: Model) -> Bool {
    guard event >= 0, compiled.log == nil else { return fireFully(event, model) }
    // A statechart's step has a function of its own, so that the flat step keeps its registers
    // (Benchmarks/README.md, "Idle statechart apart").
    guard case .flat = compiled.engine else { return chartIdle(event, model) }
    model._$stateMachineStorage.isBusy = true
    let happened = RunLoop.cleanedStep(self, model) { FlatEngine.step(self, event, noPayload, model) }.happened
    _ = RunLoop.endRun(self, model, event: event)
    return happened
  }

  /// ``fireIdle(_:_:)`` for a statechart: its step, the engine step inlined.
  @inlinable @inline(never)
  func chartIdle(_ event: Int32, _ model: Model) -> Bool {
    model._$stateMachineStorage.isBusy = true
    let happened = RunLoop.step(self, event, noPayload, model).happened
    _ = RunLoop.endRun(self, model, event: event)
    return happened
  }

  /// Runs a ``LightTransition`` on a machine this thread owns: guard, `before` callbacks and exit
  /// actions, the state, entry actions and `after` callbacks (one whose only code is one of the
  /// latter is run by ``fireSoleAfter(_:_:_:)``). A failing or throwing guard, or a throwing
  /// `before` callback or exit action, changes nothing (the events they fired are dropped too); a
  /// throwing entry action or `after` callback skips the rest and the new state stands.
  @inlinable @inline(__always)
  func fireLight(_ light: Unmanaged<LightTransition<Model>>, _ model: Model) -> Bool {
    light._withUnsafeGuaranteedRef { transition in
      if let guardBox = transition.guardBox {
        let passed = (try? guardBox._withUnsafeGuaranteedRef { try $0.body(model) }) ?? false
        guard passed else {
          RunLoop.dropOwnQueued(self, after: 0, model)
          return false
        }
      }
      do {
        try StepActions.callPlain(self, transition.before, model)
      } catch {
        RunLoop.dropOwnQueued(self, after: 0, model)
        return false
      }
      write(transition.target, model)
      // An error here does not undo the transition; the remaining callbacks are skipped.
      try? StepActions.callPlain(self, transition.after, model)
      return true
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
}

/// The payload of an event fired without one, passed down by reference: a `nil` made for the call
/// would be destroyed after it, which Swift does for an optional existential through generic value
/// witnesses (Benchmarks/README.md, "Optional existentials not made per call").
@usableFromInline let noPayload: (any Sendable)? = nil

extension StateMachineDefinition {
  /// Fires the event named `event` on `model` now, in the caller's context, and says how it
  /// ended: `fire`'s answer with its reason. The members `send(_:payload:source:)` of objects
  /// call it on the object's actor. `source` is what inspection records say of the event
  /// (``InspectionSource/inspector`` for an inspector's sends).
  public func send(
    _ event: String, payload: (any Sendable)? = nil, source: InspectionSource = .api, on model: Model
  ) -> FireOutcome {
    guard let index = eventIndex(event) else { return .rejected(rejectUnknown(event, model, source: source, payload: payload)) }
    return FireOutcome(RunLoop.runToCompletion(self, index, payload, model, source: source))
  }
}
