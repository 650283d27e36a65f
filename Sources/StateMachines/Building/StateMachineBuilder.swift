import Foundation
internal import StateMachinesNames

/// The DSL that describes a state machine, handed to ``StateMachineDefinition/init(_:)``.
///
/// Mirrors LSStateMachine: `initialState`, `addState`, `when(_:transitionFrom:to:)`, `before`,
/// `after`. The order of calls does not matter: a callback may name an event that a later `when`
/// declares. Declaring the same state or plain transition twice is harmless.
///
/// A state declared with a closure is compound: the closure receives a builder scoped to it, whose
/// names are resolved inside that state first (Hierarchy N5), and whose `initialState`,
/// `onEntry {}` and `onExit {}` are the state's own:
///
/// ```swift
/// sm.addState("on") { on in
///   on.initialState = "stopped"
///   on.addState("stopped"); on.addState("playing")
///   on.addHistory("resume", .shallow)
/// }
/// sm.addParallelState("deck") { deck in        // each child is a region
///   deck.addState("audio") { $0.addState("loud"); $0.addState("muted") }
///   deck.addState("video") { $0.addState("sd"); $0.addState("hd") }
/// }
/// sm.when("power", transitionFrom: "off", to: "on/resume")    // a path, or a unique bare name
/// ```
public final class StateMachineBuilder<Model> {
  /// A callback that runs before or after a transition, or on entry to or exit from a state.
  public typealias Callback = (Model, Transition) throws -> Void
  /// A guard: the transition is taken only if it returns `true`.
  public typealias Guard = (Model, Transition) throws -> Bool

  typealias TransitionSpec = BuilderStore<Model>.TransitionSpec

  /// What the builders declare. A loader replaces the root builder's empty store with the one
  /// it loaded, before anything else is declared.
  var store: BuilderStore<Model>
  /// The declared node this builder declares in; -1 for the root.
  let scope: Int

  init() {
    store = BuilderStore()
    scope = -1
  }

  private init(store: BuilderStore<Model>, scope: Int) {
    self.store = store
    self.scope = scope
  }

  /// The state a new object starts in, or for a scoped builder the child its state enters by
  /// default; defaults to the first state added. It may name a descendant at any depth (S11).
  /// Setting a root state that was not added adds it.
  public var initialState: String? {
    get { initialStates.first }
    set { initialStates = newValue.map { [$0] } ?? [] }
  }

  /// Several initial states, one per region of a parallel descendant (SCXML `initial="a b"`).
  public var initialStates: [String] {
    get { scope == -1 ? store.rootInitial : store.nodes[scope].initial }
    set {
      if scope == -1 {
        store.rootInitial = newValue
        for name in newValue where !StatePath.isPath(name) { store.declareImplicit(name) }
      } else {
        store.nodes[scope].initial = newValue
      }
    }
  }

  /// The clock that times ``when(_:transitionFrom:to:after:)`` timeouts. Inject a
  /// ``ManualClock`` to test them without sleeping.
  public var clock: any Clock<Duration> {
    get { store.clock }
    set { store.clock = newValue }
  }

  /// The center that ``when(_:transitionFrom:to:onNotification:)`` observes.
  public var notificationCenter: NotificationCenter {
    get { store.notificationCenter }
    set { store.notificationCenter = newValue }
  }

  /// The most steps one run to completion may take: the event fired plus the events its
  /// callbacks queue, and theirs. Past it the run ends with
  /// ``StateMachineError/runToCompletionLimit(event:steps:)``, the state is the last one reached
  /// and the rest of the queue is dropped (and logged). Guards against callbacks that fire events
  /// forever (a → b → a …). At least 1; the default is 10,000.
  public var maxStepsPerRunToCompletion: Int {
    get { store.maxStepsPerRunToCompletion }
    set { store.maxStepsPerRunToCompletion = newValue }
  }

  /// The most eventless microsteps one event may cause (Hierarchy S12): past it the step ends
  /// with ``StateMachineError/eventlessLoop(event:microsteps:)``, the configuration is the one
  /// reached and the queue is dropped. Guards against eventless transitions that never settle.
  /// At least 1; the default is 1,000.
  public var maxEventlessMicrosteps: Int {
    get { store.maxEventlessMicrosteps }
    set { store.maxEventlessMicrosteps = newValue }
  }

  /// SCXML's event matching (3.12.1): an event name that no transition names fires the
  /// transitions of its longest dot-separated prefix that one names (`"error.io.disk"` fires
  /// `"error.io"`, or `"error"`), else those of an event named `*`. Callbacks see the prefix as
  /// the event. Off by default: an unknown name is rejected. The SCXML import turns it on.
  public var matchesEventsByPrefix: Bool {
    get { store.matchesEventsByPrefix }
    set { store.matchesEventsByPrefix = newValue }
  }

  /// Whether the machine posts `.stateMachineDidEnterState`,
  /// `.stateMachineDidExitState` and
  /// `.stateMachineDidPerformInternalTransition` to
  /// ``notificationCenter`` (TBStateMachine's notifications). Off by default.
  public var postsStateNotifications: Bool {
    get { store.postsStateNotifications }
    set { store.postsStateNotifications = newValue }
  }

  /// Where the verbose trace goes; `nil` (the default) traces nothing. See ``StateMachineLog``.
  public var log: StateMachineLog? {
    get { store.log }
    set { store.log = newValue }
  }

  /// Turns the verbose trace on, written to standard error (motion-state-machine's `verbose`).
  public var verbose: Bool {
    get { log != nil }
    set { log = newValue ? .standardError : nil }
  }

  // MARK: What the compiler reads

  /// The states of a flat machine, in declaration order.
  var states: [String] { store.nodes.map(\.name) }
  /// The events, in the order of their first transition.
  var eventNames: [String] {
    var names: [String] = []
    var seen: Set<String> = []
    for transition in transitions where !transition.isEventless && !transition.isDoneTransition
      && seen.insert(transition.event).inserted
    {
      names.append(transition.event)
    }
    return names
  }
  var transitions: [TransitionSpec] { store.transitions }
  var beforeCallbacks: [BuilderStore<Model>.NamedCallback] { store.beforeCallbacks }
  var afterCallbacks: [BuilderStore<Model>.NamedCallback] { store.afterCallbacks }
  var entryActions: [BuilderStore<Model>.EntryAction] { store.entryActions }
  var exitActions: [BuilderStore<Model>.StateCallback] { store.exitActions }
  var finalStates: [String] { store.nodes.filter { $0.kind == .final }.map(\.name) }
  var observers: [(Model, Transition) -> Void] { store.observers }

  // MARK: States

  /// Adds a state in this builder's scope. Adding it again changes nothing. A path
  /// (`"on/loading"`) adds the last component under the state the rest names; that state may be
  /// declared anywhere in the definition.
  public func addState(_ name: String) {
    store.declare(name, kind: .state, in: scope)
  }

  /// Adds a compound state: `body` declares its children with a builder scoped to it.
  public func addState(_ name: String, _ body: (StateMachineBuilder<Model>) -> Void) {
    body(StateMachineBuilder(store: store, scope: store.declare(name, kind: .state, in: scope)))
  }

  /// Adds a parallel state: each child that `body` declares is a region, and all are active
  /// together (N3).
  public func addParallelState(_ name: String, _ body: (StateMachineBuilder<Model>) -> Void) {
    body(StateMachineBuilder(store: store, scope: store.declare(name, kind: .parallel, in: scope)))
  }

  /// Adds a parallel state with anonymous regions, TBStateMachine style: region `i` holds the
  /// atomic states `regions[i]` (its first is its initial) and is reached as `name@i` (N3).
  public func addParallelState(_ name: String, regions: [[String]]) {
    let parallel = store.declare(name, kind: .parallel, in: scope)
    for region in regions {
      let regionNode = store.declareAnonymousRegion(in: parallel)
      for state in region { store.declare(state, kind: .state, in: regionNode) }
    }
  }

  /// Adds a final state. Entering a top-level final state terminates the machine (it rejects
  /// every event afterwards); entering a nested one raises `done.state.<parent path>` (S16).
  public func addFinalState(_ name: String) {
    store.declare(name, kind: .final, in: scope)
  }

  /// Adds a history pseudostate to this builder's state (S15). A transition to it enters the
  /// state's recorded children (shallow) or atomic descendants (deep), or, before the state was
  /// ever exited, `defaults` (the state's initial when empty).
  public func addHistory(_ name: String, _ kind: HistoryKind = .shallow, default defaults: String...) {
    addHistory(name, kind, defaults: defaults, action: nil)
  }

  /// ``addHistory(_:_:default:)`` with an action that runs when the defaults are entered.
  public func addHistory(
    _ name: String, _ kind: HistoryKind, defaults: [String], action: ((Model, Transition) throws -> Void)?
  ) {
    let node = store.declare(name, kind: .history(kind), in: scope)
    store.nodes[node].targets = defaults
    store.nodes[node].defaultAction = action.map { .withTransition($0) }
  }

  /// Adds a junction (S17c): a transition to it continues on the first of its paths whose guard
  /// passes.
  public func addJunction(_ name: String, _ body: (JunctionBuilder<Model>) -> Void) {
    let junction = JunctionBuilder<Model>(scope: scope)
    body(junction)
    let node = store.declare(name, kind: .junction, in: scope)
    store.nodes[node].junctionPaths = junction.allPaths
  }

  /// Adds a join (TBStateMachine, S17b): the sources of the transitions to it, in distinct
  /// regions of one parallel state, each record an arrival; once all have arrived (and are still
  /// active), the machine moves to `target`.
  public func addJoin(_ name: String, to target: String) {
    let node = store.declare(name, kind: .join, in: scope)
    store.nodes[node].targets = [target]
  }

  /// Runs `action` after this builder's state's entry actions when the state is entered by
  /// default (not through an explicit target below it); at the root, once at start (S7.5).
  public func initialAction(_ action: @escaping (Model, Transition) throws -> Void) {
    if scope == -1 {
      store.rootInitialAction = .withTransition(action)
    } else {
      store.nodes[scope].initialAction = .withTransition(action)
    }
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
  /// sm.when("rewind", transitionFrom: "on", to: "stopped", kind: .local)   // "on" stays
  /// ```
  ///
  /// - Parameters:
  ///   - event: the event's name; the first `when` that names it declares it.
  ///   - from: the state the transition leaves; any of its descendants takes it too.
  ///   - to: the state it enters.
  ///   - kind: ``TransitionKind/external`` (the default), ``TransitionKind/local`` or
  ///     ``TransitionKind/internal`` (no exit or entry actions run; `to` must be `from`).
  /// - Returns: the declaration, to add a guard or an action.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: String, to: String, kind: TransitionKind = .external
  ) -> TransitionDeclaration<Model> {
    when(event, transitionFrom: [from], to: [to], kind: kind)
  }

  /// Declares that `event` moves the machine from any of `from` to `to`.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: [String], to: String, kind: TransitionKind = .external
  ) -> TransitionDeclaration<Model> {
    when(event, transitionFrom: from, to: [to], kind: kind)
  }

  /// A fork (S17a): `event` moves the machine from `from` to several states in distinct regions
  /// of one parallel state; its other regions enter their defaults.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: String, to targets: [String], kind: TransitionKind = .external
  ) -> TransitionDeclaration<Model> {
    when(event, transitionFrom: [from], to: targets, kind: kind)
  }

  /// `when(_:transitionFrom:to:kind:)`; `internal: true` is `kind: .internal`.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: String, to: String, internal isInternal: Bool
  ) -> TransitionDeclaration<Model> {
    when(event, transitionFrom: [from], to: [to], kind: isInternal ? .internal : .external)
  }

  /// `when(_:transitionFrom:to:kind:)` from several states; `internal: true` is `kind: .internal`.
  @discardableResult
  public func when(
    _ event: String, transitionFrom from: [String], to: String, internal isInternal: Bool
  ) -> TransitionDeclaration<Model> {
    when(event, transitionFrom: from, to: [to], kind: isInternal ? .internal : .external)
  }

  private func when(
    _ event: String, transitionFrom from: [String], to targets: [String], kind: TransitionKind
  ) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: from.map(reference), to: targets.map(reference), kind: kind))
  }

  /// Declares an eventless transition (S12): taken as soon as the machine is in `from` and
  /// `guard` passes, after every step and before any queued event.
  @discardableResult
  public func always(
    transitionFrom from: String, to: String, if guard: ((Model) throws -> Bool)? = nil
  ) -> TransitionDeclaration<Model> {
    let declaration = always(transitionFrom: from, to: [to])
    if let `guard` { declaration.guarded(`guard`) }
    return declaration
  }

  /// An eventless transition to several targets (a fork), or to none (`[]`: only its action
  /// runs, SCXML's targetless eventless transition).
  @discardableResult
  public func always(
    transitionFrom from: String, to targets: [String], kind: TransitionKind = .external
  ) -> TransitionDeclaration<Model> {
    var spec = TransitionSpec(event: "", from: [reference(from)], to: targets.map(reference), kind: kind)
    spec.isEventless = true
    return declare(spec)
  }

  /// Declares the transition taken when compound or parallel state `state` is done: a final
  /// child of it was entered, or every region of it reached a final state (S16). Its event is
  /// `done.state.<path of state>`, an internal event.
  @discardableResult
  public func whenDone(_ state: String, transitionTo target: String) -> TransitionDeclaration<Model> {
    var spec = TransitionSpec(event: "", from: [reference(state)], to: [reference(target)])
    spec.isDoneTransition = true
    return declare(spec)
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
    var spec = TransitionSpec(event: event, from: [reference(from)], to: [reference(to)])
    spec.timeout = timeout
    return declare(spec)
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
    var spec = TransitionSpec(event: event, from: [reference(from)], to: [reference(to)])
    spec.notification = notification
    return declare(spec)
  }

  /// Declares a wildcard transition: `event` moves the machine from any state to `to`.
  /// A transition from the specific current state (or one of its ancestors) is preferred.
  @discardableResult
  public func when(_ event: String, transitionFromAnyStateTo to: String) -> TransitionDeclaration<Model> {
    declare(TransitionSpec(event: event, from: nil, to: [reference(to)]))
  }

  /// Declares a terminating transition (motion-state-machine's `die`): `event` in any of `from`
  /// stops the machine in its current state; it rejects every event afterwards.
  @discardableResult
  public func die(on event: String, from: [String]) -> TransitionDeclaration<Model> {
    var spec = TransitionSpec(event: event, from: from.map(reference), to: [], kind: .internal)
    spec.terminates = true
    return declare(spec)
  }

  // MARK: Private

  func reference(_ text: String) -> StateReference {
    .name(text, scope: scope)
  }

  func declare(_ spec: TransitionSpec) -> TransitionDeclaration<Model> {
    store.declaredTransitions.append(spec)
    return TransitionDeclaration(builder: self, index: store.declaredTransitions.count - 1)
  }

  /// Adds `guardBody` to the transition at `index`; a second guard must pass too.
  func addGuard(_ guardBody: MachineGuard<Model>, at index: Int) {
    guard let existing = store.declaredTransitions[index].guardBody else {
      store.declaredTransitions[index].guardBody = guardBody
      return
    }
    store.declaredTransitions[index].guardBody = .withTransition { model, transition in
      try existing(model, { transition }) && guardBody(model, { transition })
    }
  }

  /// Adds `action` to the transition at `index`; a second action runs after the first. `declared`:
  /// the declared actions it runs (`nil`: code).
  func addAction(_ action: MachineCallback<Model>, at index: Int, declared: [DeclaredAction]? = nil) {
    if let declared {
      store.declaredTransitions[index].declaredActions += declared
    } else {
      store.declaredTransitions[index].actionHasCode = true
    }
    guard let existing = store.declaredTransitions[index].action else {
      store.declaredTransitions[index].action = action
      return
    }
    store.declaredTransitions[index].action = .withTransition { model, transition in
      try existing(model, { transition })
      try action(model, { transition })
    }
  }
}
