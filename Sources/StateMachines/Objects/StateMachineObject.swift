/// An object driven by a state machine: the string-keyed API every machine object shares.
///
/// ``StateMachine()`` conforms the annotated class; ``DynamicStateMachine`` conforms for machines
/// built at run time. The requirements that start with `_$` are implementation details that the
/// macro generates; use the members of the extension instead.
public protocol StateMachineObject: AnyObject {
  /// The class whose definition drives this object (the annotated class; a subclass inherits it).
  associatedtype StateMachineModel: StateMachineObject

  /// The definition that drives this object.
  var stateMachineDefinition: StateMachineDefinition<StateMachineModel> { get }

  /// The current state.
  var state: String { get }

  /// `self`, typed as the model that callbacks receive.
  @_documentation(visibility: internal)
  var _$stateMachineModel: StateMachineModel { get }

  /// The per-object machine storage. Implementation detail of ``StateMachine()``.
  @_documentation(visibility: internal)
  var _$stateMachineStorage: StateMachineStorage { get set }

  /// The lock that serialises events, or `nil` for an object that is not shared between threads.
  @_documentation(visibility: internal)
  var _$stateMachineLock: StateMachineLock? { get }

  /// The global actor the object is isolated to, where timeouts and notifications deliver their
  /// events; `nil` for an object that is not actor-isolated.
  @_documentation(visibility: internal)
  var _$stateMachineActor: (any Actor)? { get }

  /// Whether ``_$stateMachineWillChangeState()`` and ``_$stateMachineDidChangeState()`` run code
  /// (true in an `@Observable` class): such code may fire events, so the state is then written
  /// only inside a run-to-completion step.
  @_documentation(visibility: internal)
  var _$stateMachineHasStateHooks: Bool { get }

  /// Called just before a transition writes the state (Observation's `willSet`).
  @_documentation(visibility: internal)
  func _$stateMachineWillChangeState()

  /// Called just after a transition wrote the state (Observation's `didSet`).
  @_documentation(visibility: internal)
  func _$stateMachineDidChangeState()
}

extension StateMachineObject {
  @_documentation(visibility: internal)
  public var _$stateMachineActor: (any Actor)? { nil }
  @_documentation(visibility: internal)
  @inlinable public var _$stateMachineHasStateHooks: Bool { false }
  @_documentation(visibility: internal)
  @inlinable public func _$stateMachineWillChangeState() {}
  @_documentation(visibility: internal)
  @inlinable public func _$stateMachineDidChangeState() {}
}

extension StateMachineObject {
  /// Fires an event by name.
  ///
  /// - Returns: `true` if a transition happened; `false` if the event was rejected, in which case
  ///   the state is unchanged. When the machine is busy with a step and the caller is itself
  ///   running a step (a callback of this machine, or of another machine that fires this one),
  ///   the event is queued: it runs before the machine goes idle, its outcome goes to the log,
  ///   and this returns `true` ("accepted into the queue").
  @inlinable
  @discardableResult
  public func fire(_ event: String, payload: (any Sendable)? = nil) -> Bool {
    // The object's own definition drives it: only the name is checked.
    stateMachineDefinition.fire(named: event, payload: payload, _$stateMachineModel, modelChecked: true)
  }

  /// Fires an event by name and says why it was rejected.
  ///
  /// Called from inside a callback of this machine, the event is queued and this returns without
  /// error; errors of queued events go to the definition's log.
  /// - Throws: ``StateMachineError``: unknown event, no transition from the current state, all
  ///   guards failed, terminated, invalid definition, or a callback that threw.
  @inlinable
  public func fireOrThrow(_ event: String, payload: (any Sendable)? = nil) throws(StateMachineError) {
    try stateMachineDefinition.fireOrThrow(event, payload: payload, on: _$stateMachineModel)
  }

  /// Whether firing `event` now would take a transition (guards are evaluated, nothing changes).
  @inlinable
  public func can(_ event: String) -> Bool {
    stateMachineDefinition.can(event, on: _$stateMachineModel)
  }

  /// Whether the machine is in `state`.
  @inlinable
  public func isInState(_ state: String) -> Bool {
    stateMachineDefinition.isInState(state, on: _$stateMachineModel)
  }

  /// The events that would take a transition now, in declaration order.
  public var availableEvents: [String] {
    let definition = stateMachineDefinition
    return definition.availableEvents(on: _$stateMachineModel)
  }

  /// Whether the machine has terminated: a final state was entered, or a terminating transition
  /// was taken. A terminated machine rejects every event.
  public var isStateMachineTerminated: Bool {
    stateMachineDefinition.isTerminated(_$stateMachineModel)
  }

  /// Enters the current state: runs its entry actions and arms its timeouts and notification
  /// observers (motion-state-machine's `start!`); transitions do it by themselves for every later
  /// state. A machine that was not started explicitly starts on its first use (its first event
  /// or query), so calling this is optional; it does nothing for a machine that has started.
  public func startStateMachine() throws(StateMachineError) {
    try RunLoop.start(stateMachineDefinition, _$stateMachineModel)
  }

  /// The transitions of this object, as they happen, for Swift concurrency code. Each call makes
  /// a new stream; it ends when the object goes away.
  ///
  /// While no one reads, the stream keeps the newest 1,024 transitions and drops older ones, so an
  /// unread stream holds bounded memory. Use ``stateTransitions(bufferingPolicy:)`` to choose.
  public var stateTransitions: AsyncStream<CompletedTransition> {
    stateTransitions(bufferingPolicy: .bufferingNewest(1024))
  }

  /// The transitions of this object, buffered by `bufferingPolicy` while no one reads
  /// (`.unbounded` keeps them all).
  public func stateTransitions(
    bufferingPolicy: AsyncStream<CompletedTransition>.Continuation.BufferingPolicy
  ) -> AsyncStream<CompletedTransition> {
    Triggers.transitionStream(stateMachineDefinition, of: _$stateMachineModel, bufferingPolicy: bufferingPolicy)
  }

  /// Puts the machine into `state` without running any callback: an explicit reset. Timeouts and
  /// notification observers of the old state are disarmed, those of `state` armed; a terminated
  /// machine comes back to life unless `state` is final. (A `Codable` round trip, by contrast,
  /// keeps termination.)
  ///
  /// - Throws: ``StateMachineError/unknownState(_:)`` if `state` is not a state of the machine, or
  ///   ``StateMachineError/busy(_:)`` if the machine is running a step (called from one of its
  ///   callbacks), or ``StateMachineError/storeManaged(event:)`` for a store-managed object (P13:
  ///   use its store's `restore`); the state is then unchanged.
  public func restoreState(_ state: String) throws(StateMachineError) {
    try stateMachineDefinition.restore(state, on: _$stateMachineModel)
  }

  // MARK: Hierarchy (Hierarchy §3)

  /// Every active state's canonical path in document order: the active leaves and all their
  /// ancestors (for a flat machine, the state).
  public var activeStates: [String] { stateMachineDefinition.activeStates(of: _$stateMachineModel) }

  /// The active leaves' canonical paths in document order: one per active region.
  public var activeLeaves: [String] { stateMachineDefinition.activeLeaves(of: _$stateMachineModel) }

  /// The active states as an indented tree, one per line.
  public var configurationDescription: String {
    stateMachineDefinition.configurationDescription(of: _$stateMachineModel)
  }

  /// Exits every active state (children first, later regions first), running exit actions
  /// (TBStateMachine's `tearDown`); the next use starts the machine again.
  public func stopStateMachine() throws(StateMachineError) {
    try stateMachineDefinition.stop(_$stateMachineModel)
  }

  /// Fires `event` once the current run to completion is done (the external queue, S13), or now
  /// when no step runs.
  @discardableResult
  public func post(_ event: String, payload: (any Sendable)? = nil) -> Bool {
    stateMachineDefinition.post(event, payload: payload, on: _$stateMachineModel)
  }

  /// Fires `event` after `delay` on the definition's clock (SCXML `<send delay>`); with an `id`,
  /// ``cancelPost(id:)`` cancels it until it fires.
  public func post(_ event: String, payload: (any Sendable)? = nil, after delay: Duration, id: String? = nil) {
    stateMachineDefinition.post(event, payload: payload, after: delay, id: id, on: _$stateMachineModel)
  }

  /// Cancels every event posted with ``post(_:payload:after:id:)`` under `id` that has not fired
  /// yet (SCXML `<cancel sendid>`).
  public func cancelPost(id: String) {
    stateMachineDefinition.cancelPost(id: id, on: _$stateMachineModel)
  }

  /// Calls `body` with the event's payload each time the state at `path` (a canonical path such
  /// as `"c/c2@1/c222"`, or a bare name that is unique) is entered, right before its entry
  /// actions (TBStateMachine's `subscribeToEntryAtPath:`). Keep the token: the subscription ends
  /// when it is cancelled or goes away.
  ///
  /// - Throws: ``StateMachineError/unknownState(_:)`` for a path that names no state.
  public func subscribeToEntry(
    at path: String, _ body: @escaping ((any Sendable)?) -> Void
  ) throws(StateMachineError) -> StateMachineSubscription {
    try StateAnnouncements.subscribe(stateMachineDefinition, .entry, at: path, event: nil, on: _$stateMachineModel, body)
  }

  /// Calls `body` each time the state at `path` is exited, right before its exit actions.
  public func subscribeToExit(
    at path: String, _ body: @escaping ((any Sendable)?) -> Void
  ) throws(StateMachineError) -> StateMachineSubscription {
    try StateAnnouncements.subscribe(stateMachineDefinition, .exit, at: path, event: nil, on: _$stateMachineModel, body)
  }

  /// Calls `body` each time `event` takes an internal transition declared on the state at
  /// `path`, right before the transition's action.
  public func subscribeToInternalTransition(
    _ event: String, at path: String, _ body: @escaping ((any Sendable)?) -> Void
  ) throws(StateMachineError) -> StateMachineSubscription {
    try StateAnnouncements.subscribe(stateMachineDefinition, .internalTransition, at: path, event: event, on: _$stateMachineModel, body)
  }
}
