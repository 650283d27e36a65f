/// Guards and actions bound by name, for definitions loaded from data (SCXML, JSON): the
/// document names a guard or an action, the code supplies it.
///
/// ```swift
/// let definition = try StateMachineDefinition<Player>(scxml: data) { bind in
///   bind.guard("hasTrack") { player, _ in player.track != nil }
///   bind.action("advance") { player, _ in player.advance() }
/// }
/// ```
public struct Bindings<Model> {
  private var guards: [String: (Model, Transition) throws -> Bool] = [:]
  private var actions: [String: (Model, Transition) throws -> Void] = [:]
  private var unknownGuard: ((String) -> (Model, Transition) throws -> Bool)?
  private var unknownAction: ((String) -> (Model, Transition) throws -> Void)?

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

  /// Supplies the guards and actions of names not bound by name: for a tool that loads any
  /// document (`statemachine run`), say. `guard(name)` and `action(name)` make the callback.
  public mutating func bindUnknownNames(
    guard: @escaping (String) -> (Model, Transition) throws -> Bool,
    action: @escaping (String) -> (Model, Transition) throws -> Void
  ) {
    unknownGuard = `guard`
    unknownAction = action
  }

  /// The guard bound to `name`, if any.
  public func guardBody(named name: String) -> ((Model, Transition) throws -> Bool)? {
    guards[name] ?? unknownGuard?(name)
  }

  /// The action bound to `name`, if any.
  public func actionBody(named name: String) -> ((Model, Transition) throws -> Void)? {
    actions[name] ?? unknownAction?(name)
  }

  /// Every bound guard name.
  public var guardNames: [String] { guards.keys.sorted() }

  /// Every bound action name.
  public var actionNames: [String] { actions.keys.sorted() }
}
