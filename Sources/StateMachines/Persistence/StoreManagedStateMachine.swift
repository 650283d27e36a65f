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
}
