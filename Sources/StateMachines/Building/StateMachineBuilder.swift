import Foundation

/// The DSL that describes a state machine, handed to ``StateMachineDefinition/init(_:)``.
///
/// Mirrors LSStateMachine: `initialState`, `addState`, `when(_:transitionFrom:to:)`, `before`,
/// `after`. The order of calls does not matter: a callback may name an event that a later `when`
/// declares. Declaring the same state or plain transition twice is harmless.
public final class StateMachineBuilder<Model> {
  /// A callback that runs before or after a transition, or on entry to or exit from a state.
  public typealias Callback = (Model, Transition) throws -> Void
  /// A guard: the transition is taken only if it returns `true`.
  public typealias Guard = (Model, Transition) throws -> Bool

  struct TransitionSpec {
    let event: String
    /// `nil` means any state (a wildcard transition).
    let from: [String]?
    /// `nil` means the machine stays in its current state (used by `die`).
    let to: String?
    var isInternal = false
    var terminates = false
    var guardBody: MachineGuard<Model>? = nil
    var action: MachineCallback<Model>? = nil
    /// Fires the event automatically this long after entering a from-state.
    var timeout: Duration? = nil
    /// Fires the event when this notification is posted while in a from-state.
    var notification: Notification.Name? = nil
  }

  struct NamedCallback {
    let name: String
    let body: MachineCallback<Model>
  }

  struct EntryAction {
    let state: String
    let body: MachineEntryAction<Model>
  }

  /// The state a new object starts in. Defaults to the first state added; setting a state that
  /// was not added adds it.
  public var initialState: String? {
    didSet {
      if let initialState { addState(initialState) }
    }
  }

  /// The clock that times ``when(_:transitionFrom:to:after:)`` timeouts. Inject a
  /// ``ManualClock`` to test them without sleeping.
  public var clock: any Clock<Duration> = ContinuousClock()

  /// The center that ``when(_:transitionFrom:to:onNotification:)`` observes.
  public var notificationCenter: NotificationCenter = .default

  /// The most steps one run to completion may take: the event fired plus the events its
  /// callbacks queue, and theirs. Past it the run ends with
  /// ``StateMachineError/runToCompletionLimit(event:steps:)``, the state is the last one reached
  /// and the rest of the queue is dropped (and logged). Guards against callbacks that fire events
  /// forever (a → b → a …). At least 1; the default is 10,000.
  public var maxStepsPerRunToCompletion = 10_000

  /// Where the verbose trace goes; `nil` (the default) traces nothing. See ``StateMachineLog``.
  public var log: StateMachineLog?

  /// Turns the verbose trace on, written to standard error (motion-state-machine's `verbose`).
  public var verbose: Bool {
    get { log != nil }
    set { log = newValue ? .standardError : nil }
  }

  private(set) var states: [String] = []

  /// The events, in the order of their first transition.
  var eventNames: [String] {
    var names: [String] = []
    var seen: Set<String> = []
    for transition in transitions where seen.insert(transition.event).inserted { names.append(transition.event) }
    return names
  }
  private var stateSet: Set<String> = []
  /// Every transition as declared, in order.
  private var declaredTransitions: [TransitionSpec] = []

  /// The transitions, in declaration order, without repeats: declaring the same plain transition
  /// (no guard, no action) twice is harmless.
  var transitions: [TransitionSpec] {
    var plain: Set<PlainTransitionKey> = []
    return declaredTransitions.filter { spec in
      guard spec.guardBody == nil, spec.action == nil, spec.timeout == nil, spec.notification == nil else {
        return true
      }
      return plain.insert(
        PlainTransitionKey(
          event: spec.event, from: spec.from, to: spec.to, isInternal: spec.isInternal, terminates: spec.terminates)
      ).inserted
    }
  }
  private(set) var beforeCallbacks: [NamedCallback] = []
  private(set) var afterCallbacks: [NamedCallback] = []
  private(set) var entryActions: [EntryAction] = []
  private(set) var exitActions: [NamedCallback] = []
  private(set) var finalStates: [String] = []
  private(set) var observers: [(Model, Transition) -> Void] = []

  init() {}

  // MARK: States

  /// Adds a state. Adding it again changes nothing.
  public func addState(_ name: String) {
    if stateSet.insert(name).inserted { states.append(name) }
  }

  /// Adds a final state: once it is entered, the machine terminates and rejects every event.
  public func addFinalState(_ name: String) {
    addState(name)
    if !finalStates.contains(name) { finalStates.append(name) }
  }

  // MARK: Transitions
  //
  // Every call that declares a transition returns a ``TransitionDeclaration``: its `guarded` and
  // `action` methods add a guard and an action, in the same two forms (with or without the
  // ``Transition``) for every kind of transition.

  /// Declares that `event` moves the machine from `from` to `to`.
  ///
  /// ```swift
  /// sm.when("activate", transitionFrom: "pending", to: "active")
  /// sm.when("upgrade", transitionFrom: "basic", to: "premium").guarded { $0.hasPaid }
  /// ```
  ///
  /// - Parameters:
  ///   - event: the event's name; the first `when` that names it declares it.
  ///   - from: the state the transition leaves.
  ///   - to: the state it enters.
  ///   - isInternal: for a transition from a state to itself: `true` runs no exit or entry action
  ///     (an internal transition); `false`, the default, runs both.
  /// - Returns: the declaration, to add a guard or an action.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: String, to: String, internal isInternal: Bool = false
  ) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: [from], to: to, isInternal: isInternal))
  }

  /// Declares that `event` moves the machine from any of `from` to `to`.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: [String], to: String, internal isInternal: Bool = false
  ) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: from, to: to, isInternal: isInternal))
  }

  /// Declares a transition that fires by itself when the machine has been in `from` for
  /// `timeout` (motion-state-machine's `transition_to :x, after: 20`). The timeout is armed on
  /// entry to `from` and cancelled on exit; the event can also be fired by name. For the initial
  /// state, entry is the machine's start (its first use, or `startStateMachine()`).
  ///
  /// Timeouts arrive from the clock's scheduler: the class must be isolated to a global actor
  /// (`@MainActor`) or declare `Sendable`, so the event can be delivered safely.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: String, to: String, after timeout: Duration
  ) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: [from], to: to, timeout: timeout))
  }

  /// Declares a transition that fires when `notification` is posted while the machine is in
  /// `from` (motion-state-machine's `on_notification:`). The observer is added on entry to `from`
  /// and removed on exit, or when the object goes away; it does not keep the object alive.
  ///
  /// Like timeouts, notifications need a class isolated to a global actor or declaring `Sendable`.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: String, to: String, onNotification notification: Notification.Name
  ) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: [from], to: to, notification: notification))
  }

  /// Declares a wildcard transition: `event` moves the machine from any state to `to`.
  /// A transition from the specific current state is preferred over a wildcard.
  @discardableResult
  public func when(_ event: String, transitionFromAnyStateTo to: String) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: nil, to: to))
  }

  /// Declares a terminating transition (motion-state-machine's `die`): `event` in any of `from`
  /// stops the machine in its current state; it rejects every event afterwards.
  @discardableResult
  public func die(on event: String, from: [String]) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: from, to: nil, isInternal: true, terminates: true))
  }

  // MARK: Callbacks

  /// Runs `callback` before every transition of `event`, while the state is still the old one.
  /// Throwing aborts the transition; nothing changes.
  public func before(_ event: String, _ callback: @escaping (Model) throws -> Void) {
    beforeCallbacks.append(NamedCallback(name: event, body: .plain(callback)))
  }

  /// Runs `callback`, which receives the ``Transition``, before every transition of `event`.
  public func before(_ event: String, _ callback: @escaping Callback) {
    beforeCallbacks.append(NamedCallback(name: event, body: .withTransition(callback)))
  }

  /// Runs `callback` after every transition of `event`, once the state is the new one.
  public func after(_ event: String, _ callback: @escaping (Model) throws -> Void) {
    afterCallbacks.append(NamedCallback(name: event, body: .plain(callback)))
  }

  /// Runs `callback`, which receives the ``Transition``, after every transition of `event`.
  public func after(_ event: String, _ callback: @escaping Callback) {
    afterCallbacks.append(NamedCallback(name: event, body: .withTransition(callback)))
  }

  /// Runs `action` whenever `state` is entered by an external transition.
  public func onEntry(_ state: String, _ action: @escaping (Model) throws -> Void) {
    entryActions.append(EntryAction(state: state, body: .callback(.plain(action))))
  }

  /// Runs `action`, which receives the ``Transition``, whenever `state` is entered.
  public func onEntry(_ state: String, _ action: @escaping Callback) {
    entryActions.append(EntryAction(state: state, body: .callback(.withTransition(action))))
  }

  /// Runs `action` whenever `state` is entered; the ``NextStep`` it returns, if any, is processed
  /// as the next run-to-completion step (Stately's `StateChange`).
  public func onEntry(
    _ state: String, then action: @escaping (Model, Transition) throws -> NextStep?
  ) {
    entryActions.append(EntryAction(state: state, body: .then(action)))
  }

  /// Runs `action` whenever `state` is left by an external transition.
  public func onExit(_ state: String, _ action: @escaping (Model) throws -> Void) {
    exitActions.append(NamedCallback(name: state, body: .plain(action)))
  }

  /// Runs `action`, which receives the ``Transition``, whenever `state` is left.
  public func onExit(_ state: String, _ action: @escaping Callback) {
    exitActions.append(NamedCallback(name: state, body: .withTransition(action)))
  }

  /// Calls `observer` after every transition (old state, event and new state are in the
  /// ``Transition``), once the `after` callbacks ran.
  public func didTransition(_ observer: @escaping (Model, Transition) -> Void) {
    observers.append(observer)
  }

  // MARK: Private

  private func declare(_ spec: TransitionSpec) -> TransitionDeclaration<Model> {
    declaredTransitions.append(spec)
    return TransitionDeclaration(builder: self, index: declaredTransitions.count - 1)
  }

  /// Adds `guardBody` to the transition at `index`; a second guard must pass too.
  func addGuard(_ guardBody: MachineGuard<Model>, at index: Int) {
    guard let existing = declaredTransitions[index].guardBody else {
      declaredTransitions[index].guardBody = guardBody
      return
    }
    declaredTransitions[index].guardBody = .withTransition { model, transition in
      try existing(model, { transition }) && guardBody(model, { transition })
    }
  }

  /// Adds `action` to the transition at `index`; a second action runs after the first.
  func addAction(_ action: MachineCallback<Model>, at index: Int) {
    guard let existing = declaredTransitions[index].action else {
      declaredTransitions[index].action = action
      return
    }
    declaredTransitions[index].action = .withTransition { model, transition in
      try existing(model, { transition })
      try action(model, { transition })
    }
  }
}

/// What makes two plain transitions (no guard, no action) the same.
private struct PlainTransitionKey: Hashable {
  let event: String
  let from: [String]?
  let to: String?
  let isInternal: Bool
  let terminates: Bool
}
