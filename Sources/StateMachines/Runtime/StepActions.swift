// The code of a step, run in order: a state's entry and exit actions (one procedure each for
// every engine, and, for entry actions, for starting a machine), an event's boxed callbacks (the
// full step) and plain ones (the light tier). Each stops at the first that throws; the caller
// decides what the failure means.

@usableFromInline
enum StepActions<Model: StateMachineObject> {
  /// Runs the entry actions of `state` in declaration order, on a machine this thread owns, and
  /// queues the event an action asks for (``NextStep``). Throws what an action throws, or
  /// ``StateMachineError/unknownEvent(_:)`` for a next step that names no event: the caller
  /// decides what the failure means (Semantics step 7: the state stands, the rest is skipped).
  @inlinable
  static func runEntryActions(_ definition: StateMachineDefinition<Model>, of state: Int32, _ model: Model, _ transition: () -> Transition) throws {
    let actions = definition.compiled.entryActions[Int(state)]
    if actions.isEmpty { return }
    definition.trace("entry '\(definition.stateName(state))'")
    for action in actions {
      switch action {
      case .callback(let callback):
        try callback(model, transition)
      case .then(let body):
        // Only here is a `NextStep?` made: destroying one, even `nil`, goes through generic value
        // witnesses (Benchmarks/README.md, "Optional existentials not made per call").
        if let next = try body(model, transition()) { try RunLoop.enqueue(definition, next, model) }
      }
    }
  }

  /// Runs the exit actions of `state` in declaration order; throws what an action throws. Reads
  /// them in place: iterating the array retains it (Benchmarks/README.md, "Arrays read in
  /// place").
  @inlinable @inline(__always)
  static func runExitActions(_ definition: StateMachineDefinition<Model>, of state: Int32, _ model: Model, _ transition: () -> Transition) throws {
    try definition.compiled.exitActions[Int(state)].withUnsafeBufferPointer { actions in
      var index = 0
      while index < actions.count {
        try actions[index](model, transition)
        index &+= 1
      }
    }
  }

  /// Calls boxed callbacks in order with the step's transition; stops at the first that throws.
  @inlinable @inline(__always)
  static func callStepCallbacks(_ definition: StateMachineDefinition<Model>,
    _ callbacks: [Unmanaged<StepCallbackBox<Model>>], _ model: Model, _ transition: Transition
  ) throws {
    var index = 0
    while index < callbacks.count {
      try callbacks[index]._withUnsafeGuaranteedRef { try $0.body(model, transition) }
      index &+= 1
    }
  }

  /// Calls plain callbacks in order, through unowned references; stops at the first that throws.
  @inlinable @inline(__always)
  static func callPlain(_ definition: StateMachineDefinition<Model>, _ callbacks: [Unmanaged<PlainCallbackBox<Model>>], _ model: Model) throws {
    var index = 0
    while index < callbacks.count {
      try callbacks[index]._withUnsafeGuaranteedRef { try $0.body(model) }
      index &+= 1
    }
  }
}

extension StepActions {
  /// The event's `after` callbacks: run now, or, in a store step, held back until the store has
  /// committed (P5). The transition is then built at once, since the step's locals are gone by
  /// the time the callbacks run.
  @inlinable
  static func runAfterCallbacks(_ definition: StateMachineDefinition<Model>,
    _ event: Int32, _ model: Model, _ extras: StateMachineExtras?, _ transition: () -> Transition
  ) throws {
    if let recorder = extras?.storeRecorder {
      let callbacks = definition.compiled.afterCallbacks[Int(event)]
      if !callbacks.isEmpty { StepActions.holdAfterCallbacks(definition, callbacks, model, transition(), recorder) }
      return
    }
    for callback in definition.compiled.afterCallbacks[Int(event)] { try callback(model, transition) }
  }

  /// The definition's observers (`didTransition`): called now, or held back in a store step (P5).
  @inlinable
  static func notifyObservers(_ definition: StateMachineDefinition<Model>, _ model: Model, _ extras: StateMachineExtras?, _ transition: () -> Transition) {
    if let recorder = extras?.storeRecorder {
      if !definition.compiled.observers.isEmpty { StepActions.holdObservers(definition, model, transition(), recorder) }
      return
    }
    for observer in definition.compiled.observers { observer(model, transition()) }
  }

  @usableFromInline
  static func holdAfterCallbacks(_ definition: StateMachineDefinition<Model>,
    _ callbacks: [CompiledMachine<Model>.Callback], _ model: Model, _ transition: Transition,
    _ recorder: StoreStepRecorder
  ) {
    recorder.hold {
      for callback in callbacks { try callback(model) { transition } }
    }
  }

  @usableFromInline
  static func holdObservers(_ definition: StateMachineDefinition<Model>, _ model: Model, _ transition: Transition, _ recorder: StoreStepRecorder) {
    let observers = definition.compiled.observers
    recorder.hold {
      for observer in observers { observer(model, transition) }
    }
  }
}
