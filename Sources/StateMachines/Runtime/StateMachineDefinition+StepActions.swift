// The code of a step, run in order: a state's entry and exit actions (one procedure each for
// every engine, and, for entry actions, for starting a machine), an event's boxed callbacks (the
// full step) and plain ones (the light tier). Each stops at the first that throws; the caller
// decides what the failure means.

extension StateMachineDefinition {
  /// Runs the entry actions of `state` in declaration order, on a machine this thread owns, and
  /// queues the event an action asks for (``NextStep``). Throws what an action throws, or
  /// ``StateMachineError/unknownEvent(_:)`` for a next step that names no event: the caller
  /// decides what the failure means (Semantics step 7: the state stands, the rest is skipped).
  @inlinable
  func runEntryActions(of state: Int32, _ model: Model, _ transition: () -> Transition) throws {
    let actions = compiled.entryActions[Int(state)]
    if actions.isEmpty { return }
    trace("entry '\(stateName(state))'")
    for action in actions {
      switch action {
      case .callback(let callback):
        try callback(model, transition)
      case .then(let body):
        // Only here is a `NextStep?` made: destroying one, even `nil`, goes through generic value
        // witnesses (Benchmarks/README.md, "Optional existentials not made per call").
        if let next = try body(model, transition()) { try RunLoop.enqueue(self, next, model) }
      }
    }
  }

  /// Runs the exit actions of `state` in declaration order; throws what an action throws. Reads
  /// them in place: iterating the array retains it (Benchmarks/README.md, "Arrays read in
  /// place").
  @inlinable @inline(__always)
  func runExitActions(of state: Int32, _ model: Model, _ transition: () -> Transition) throws {
    try compiled.exitActions[Int(state)].withUnsafeBufferPointer { actions in
      var index = 0
      while index < actions.count {
        try actions[index](model, transition)
        index &+= 1
      }
    }
  }

  /// Calls boxed callbacks in order with the step's transition; stops at the first that throws.
  @inlinable @inline(__always)
  func callStepCallbacks(
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
  func callPlain(_ callbacks: [Unmanaged<PlainCallbackBox<Model>>], _ model: Model) throws {
    var index = 0
    while index < callbacks.count {
      try callbacks[index]._withUnsafeGuaranteedRef { try $0.body(model) }
      index &+= 1
    }
  }
}
