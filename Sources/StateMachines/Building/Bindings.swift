/// Guards, actions and invoked work bound by name, for definitions loaded from data (SCXML,
/// JSON): the document names a guard, an action or an invoke's source, the code supplies it.
///
/// ```swift
/// let definition = try StateMachineDefinition<Player>(scxml: data) { bind in
///   bind.guard("hasTrack") { player, _ in player.track != nil }
///   bind.action("advance") { player, _ in player.advance() }
///   bind.invocation("fetchTrack") { context in try await Library.track(context.input as? String) }
/// }
/// ```
public struct Bindings<Model> {
  /// Work bound to an invoke's source: its input is the payload of the event that entered the
  /// invoking state (`nil` after a restore), its result the payload of `done.invoke.<id>`.
  public typealias InvocationWork = @Sendable (InvocationContext<(any Sendable)?>) async throws -> (any Sendable)?

  private var guards: [String: (Model, Transition) throws -> Bool] = [:]
  private var actions: [String: (Model, Transition) throws -> Void] = [:]
  private var invocations: [String: InvocationWork] = [:]
  private var unknownGuard: ((String) -> (Model, Transition) throws -> Bool)?
  private var unknownAction: ((String) -> (Model, Transition) throws -> Void)?
  private var unknownInvocation: ((String) -> InvocationWork)?

  /// An empty registry.
  public init() {}

  /// Binds the guard named `name`; binding a name again replaces it.
  public mutating func `guard`(_ name: String, _ body: @escaping (Model, Transition) throws -> Bool) {
    guards[name] = body
  }

  /// Binds the action named `name` (for entry, exit and transition actions alike).
  public mutating func action(_ name: String, _ body: @escaping (Model, Transition) throws -> Void) {
    actions[name] = body
  }

  /// Binds the work of the invokes whose source (`src`) is `name` (Invoke A.5): it runs in
  /// a task of its own while the invoking state is active; its input is the payload of the event
  /// that entered the state, as for ``StateMachineBuilder/invoke(_:in:run:)``. A `Void` or `nil`
  /// result is no payload.
  public mutating func invocation<Output: Sendable>(
    _ name: String, _ body: @escaping @Sendable (InvocationContext<(any Sendable)?>) async throws -> Output
  ) {
    invocations[name] = { context in InvocationOutput.payload(try await body(context)) }
  }

  /// Supplies the guards, actions and invoked work of names not bound by name: for a tool that
  /// loads any document (`statemachine run`), say. `guard(name)`, `action(name)` and
  /// `invocation(name)` make the callback; without `invocation`, an unbound source stays an error.
  public mutating func bindUnknownNames(
    guard: @escaping (String) -> (Model, Transition) throws -> Bool,
    action: @escaping (String) -> (Model, Transition) throws -> Void,
    invocation: ((String) -> InvocationWork)? = nil
  ) {
    unknownGuard = `guard`
    unknownAction = action
    unknownInvocation = invocation
  }

  /// The guard bound to `name`, if any.
  public func guardBody(named name: String) -> ((Model, Transition) throws -> Bool)? {
    guards[name] ?? unknownGuard?(name)
  }

  /// The action bound to `name`, if any.
  public func actionBody(named name: String) -> ((Model, Transition) throws -> Void)? {
    actions[name] ?? unknownAction?(name)
  }

  /// The work bound to `name`, if any, for an importer to hand to
  /// ``StateMachineBuilder/invoke(_:in:work:)``.
  public func invocationWork(named name: String) -> BoundInvocation? {
    guard let body = invocations[name] ?? unknownInvocation?(name) else { return nil }
    return BoundInvocation(name: name, body: body)
  }

  /// Every bound guard name.
  public var guardNames: [String] { guards.keys.sorted() }

  /// Every bound action name.
  public var actionNames: [String] { actions.keys.sorted() }

  /// Every bound invocation name.
  public var invocationNames: [String] { invocations.keys.sorted() }
}

/// Work bound by name to an invoke's source (``Bindings/invocation(_:_:)``), as
/// ``Bindings/invocationWork(named:)`` finds it.
public struct BoundInvocation: Sendable {
  /// The name it is bound to: the document's `src` (SCXML: `type` or `src`), written back by the
  /// JSON export.
  public let name: String
  let body: @Sendable (InvocationContext<(any Sendable)?>) async throws -> (any Sendable)?
}
