// Declared actions (raise, send, cancel, choose) where a closure could go: the same effect at run
// time, and data the path explorer runs (Paths §What the explorer runs).

extension StateMachineBuilder where Model: StateMachineObject {
  /// Raises `event` (the internal queue) whenever `state` is entered.
  public func onEntry(_ state: String, raise event: String) {
    onEntry(state, perform: [.raise(event)])
  }

  /// Raises `event` whenever `state` is left.
  public func onExit(_ state: String, raise event: String) {
    onExit(state, perform: [.raise(event)])
  }

  /// Runs `actions`, in order, whenever `state` is entered.
  public func onEntry(_ state: String, perform actions: [DeclaredAction]) {
    store.entryActions.append(
      .init(state: reference(state), body: .callback(Self.callback(actions)), declared: actions))
  }

  /// Runs `actions`, in order, whenever `state` is left.
  public func onExit(_ state: String, perform actions: [DeclaredAction]) {
    store.exitActions.append(.init(state: reference(state), body: Self.callback(actions), declared: actions))
  }

  /// ``initialAction(_:)`` made of declared actions.
  public func initialAction(perform actions: [DeclaredAction]) {
    if scope == -1 {
      store.rootInitialAction = Self.callback(actions)
      store.rootInitialDeclared = actions
    } else {
      store.nodes[scope].initialAction = Self.callback(actions)
      store.nodes[scope].initialDeclared = actions
    }
  }

  /// ``addHistory(_:_:defaults:action:)`` whose action is made of declared actions.
  public func addHistory(_ name: String, _ kind: HistoryKind, defaults: [String], perform actions: [DeclaredAction]) {
    let node = store.declare(name, kind: .history(kind), in: scope)
    store.nodes[node].targets = defaults
    store.nodes[node].defaultAction = Self.callback(actions)
    store.nodes[node].defaultDeclared = actions
  }

  /// The runtime's callback for `actions`.
  static func callback(_ actions: [DeclaredAction]) -> MachineCallback<Model> {
    let target = DeclaredActionTarget<Model>.runtime
    return .plain { actions.run(on: $0, target) }
  }
}

extension TransitionDeclaration where Model: StateMachineObject {
  /// Raises `event` (the internal queue) when the transition is taken: it is processed in the
  /// same macrostep, after this transition's entry actions.
  @discardableResult
  public func raise(_ event: String) -> Self {
    perform([.raise(event)])
  }

  /// Runs `actions`, in order, when the transition is taken (after any action added before).
  @discardableResult
  public func perform(_ actions: [DeclaredAction]) -> Self {
    builder.addAction(StateMachineBuilder<Model>.callback(actions), at: index, declared: actions)
    return self
  }
}
