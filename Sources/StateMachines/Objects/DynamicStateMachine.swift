/// A machine object for a definition built at run time, from data no class declares: states and
/// events come from strings, and the machine is driven through the string-keyed API
/// (``StateMachineObject/fire(_:payload:)``, ``StateMachineObject/can(_:)``, …).
///
/// ```swift
/// let door = try DynamicStateMachine { sm in
///   for state in ["closed", "opened"] { sm.addState(state) }
///   sm.when("open", transitionFrom: "closed", to: "opened")
/// }
/// door.fire("open")   // true
/// ```
///
/// Callbacks receive the `DynamicStateMachine`. It is `Sendable`: events from several threads are
/// serialised by its lock (`@unchecked`: its one mutable field, the machine's storage, is read
/// and written only under that lock; the definition is a `let`).
public final class DynamicStateMachine: StateMachineObject, @unchecked Sendable {
  /// The definition that drives this machine.
  public let stateMachineDefinition: StateMachineDefinition<DynamicStateMachine>
  /// Implementation detail: accessed only under ``_$stateMachineLock``.
  ///
  /// `@exclusivity(unchecked)` skips the dynamic exclusivity check on every access. Safe because
  /// the runtime only makes instantaneous accesses to it (read or write one field, append to or
  /// remove from its queue), never one that spans user code, serialised by the lock.
  @_documentation(visibility: internal)
  @exclusivity(unchecked) public var _$stateMachineStorage: StateMachineStorage

  /// A machine in `definition`'s initial state. Several machines may share one definition.
  public init(_ definition: StateMachineDefinition<DynamicStateMachine>) {
    stateMachineDefinition = definition
    _$stateMachineStorage = StateMachineStorage(definition)
  }

  /// Builds a definition and a machine in its initial state; throws if the definition is invalid.
  public convenience init(
    validating build: (StateMachineBuilder<DynamicStateMachine>) -> Void
  ) throws(DefinitionError) {
    self.init(try StateMachineDefinition(validating: build))
  }

  /// The current state.
  public var state: String { stateMachineDefinition.currentState(of: self) }

  @_documentation(visibility: internal)
  public var _$stateMachineModel: DynamicStateMachine { self }
  @_documentation(visibility: internal)
  public var _$stateMachineLock: StateMachineLock? { StateMachineLock(guarding: self) }
}
