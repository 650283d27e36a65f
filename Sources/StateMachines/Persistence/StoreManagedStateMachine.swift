/// A machine object whose state lives in a ``StateMachineStore``.
///
/// The store owns the object's machine columns (``StoredMachineState``): it loads a fresh object
/// for every step, runs the step in one transaction and writes the outcome. The object changes
/// state only through its store (P13). `Sendable`, because a store hands objects between tasks.
public protocol StoreManagedStateMachine: StateMachineObject, Sendable where StateMachineModel == Self {
  /// The type of the row's key.
  associatedtype StoreID: Hashable & Sendable & LosslessStringConvertible
  /// The row's key.
  var storeID: StoreID { get }
  /// The definition that drives the class: the `static let stateMachine` a `@StateMachine` class
  /// declares. Stores read it to make and check rows without an object at hand.
  static var stateMachine: StateMachineDefinition<Self> { get }
}
