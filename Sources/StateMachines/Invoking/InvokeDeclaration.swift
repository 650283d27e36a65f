/// What ``StateMachineBuilder/invoke(_:in:input:run:)`` declared: add options to it.
///
/// ```swift
/// sm.invoke("fetchUser", in: "loading", input: { profile, _ in profile.userID }) { context in
///   try await Backend.user(id: context.input)
/// }
/// .onRestore(.fail)
/// ```
public struct InvokeDeclaration<Model> {
  let builder: StateMachineBuilder<Model>
  let index: Int

  /// Forwards every external event the machine takes while this invocation runs (fired,
  /// posted, timeouts, notifications, other invocations' results; not events the machine's own
  /// callbacks fire, nor this invocation's result) to the work's ``InvocationContext/events``,
  /// keeping the newest 64 it has not read (Invoke I13, SCXML `autoforward`).
  @discardableResult
  public func autoforward() -> Self {
    builder.store.invocations[index].autoforward = true
    return self
  }

  /// What a machine restored from saved data (`Codable` or `restoreState`) does with this
  /// invocation when its state is active (Invoke I10): start it again (the default) or raise
  /// `error.invoke.<id>` with ``InvocationError/interruptedByRestore(id:)``.
  @discardableResult
  public func onRestore(_ policy: InvocationRestorePolicy) -> Self {
    builder.store.invocations[index].onRestore = policy
    return self
  }
}

/// What a restored machine does with an invocation of an active state (Invoke I10).
public enum InvocationRestorePolicy: Sendable, Equatable {
  /// Start the work again at the end of the machine's first step; `input` sees no payload (the
  /// event that entered the state was not saved). For work that may run twice.
  case restart
  /// Do not start it: raise `error.invoke.<id>` with ``InvocationError/interruptedByRestore(id:)``,
  /// so that a transition can go where the application checks what the interrupted work did.
  case fail
}

/// Why an invocation ended without its work's own result.
public enum InvocationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The machine was restored in the invoking state and the invoke says `.onRestore(.fail)`.
  case interruptedByRestore(id: String)

  public var description: String {
    switch self {
    case .interruptedByRestore(let id):
      return "invocation '\(id)' was interrupted: the machine was restored in its state"
    }
  }
}

/// A running invocation, as ``StateMachineObject/activeInvocations`` lists it.
public struct ActiveInvocation: Sendable, Equatable, CustomStringConvertible {
  /// The invoke's id.
  public let id: String
  /// The state that invoked it (its path in a statechart).
  public let state: String
  /// The per-object number of this start (Invoke I5): a restart has a higher one.
  public let generation: UInt64
  /// When the work was started.
  public let started: ContinuousClock.Instant

  public var description: String { "\(id)#\(generation) in '\(state)'" }
}
