// What an object tells about its invocations (Invoke A.3, I16).

extension StateMachineObject {
  /// The invocations running now, in the order they started: their work has not finished yet.
  public var activeInvocations: [ActiveInvocation] {
    Invocations.invocationRegistry(stateMachineDefinition, of: _$stateMachineModel)?.active ?? []
  }

  /// How many invocations this object started and what became of their results.
  public var invocationStatistics: InvocationStatistics {
    Invocations.invocationRegistry(stateMachineDefinition, of: _$stateMachineModel)?.statistics ?? InvocationStatistics()
  }

  /// Returns once no invocation is started but unfinished and no result waits to be processed
  /// (Invoke I16): the way to make tests of invoked work deterministic. Work that never ends
  /// (polling) keeps it waiting; cancel it by leaving its state, or observe `stateTransitions`.
  /// With a ``ManualClock``, advance the clock first, then wait.
  public func waitForInvocations(isolation: isolated (any Actor)? = #isolation) async {
    let registry = Invocations.invocationRegistry(stateMachineDefinition, of: _$stateMachineModel)
    await registry?.waitUntilIdle()
  }
}

extension StateMachineObject {
  /// Returns once `count` invocations of this object have finished and their results were
  /// delivered or dropped: for tests that release one work while others keep running.
  func waitForFinishedInvocations(_ count: Int) async {
    await Invocations.invocationRegistry(stateMachineDefinition, of: _$stateMachineModel)?.waitUntil(finished: count)
  }
}
