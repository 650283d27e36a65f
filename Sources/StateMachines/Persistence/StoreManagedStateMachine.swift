/// A machine object whose state lives in a ``StateMachineStore``.
///
/// The store owns the object's machine columns (``StoredMachineState``): it loads a fresh object
/// for every step, runs the step in one transaction and writes the outcome. The object changes
/// state only through its store (P13): its storage is store-managed however the conformance is
/// declared, a synchronous fire is refused with ``StateMachineError/storeManaged(event:)``, and a
/// `Codable` class encodes its own properties without the state. ``StateMachine()`` generates
/// `async throws` event methods that fire through the store that inserted or loaded the object,
/// and the enums ``EventName`` and ``StateName``. The class need not be `Sendable`; it gets a
/// lock all the same.
///
/// ```swift
/// @StateMachine
/// final class Order: Codable, StoreManagedStateMachine {
///   var id: Int
///   var storeID: Int { id }
///   init(id: Int) { self.id = id }
///   static let stateMachine = StateMachineDefinition<Order> { sm in
///     sm.addState("awaitingPayment")
///     sm.addState("paid")
///     sm.addState("cancelled")
///     sm.when("pay", transitionFrom: "awaitingPayment", to: "paid")
///     sm.when("expire", transitionFrom: "awaitingPayment", to: "cancelled", after: .seconds(3600))
///   }
/// }
///
/// let orders = InMemoryStateMachineStore<Order>()
/// let order = Order(id: 42)
/// try await orders.insert(order)
/// try await order.pay()                     // true: committed; the object is `paid`
/// try await orders.fire(.expire, on: 42)    // by id, with a compiler-checked name
/// ```
public protocol StoreManagedStateMachine: StateMachineObject, SendableMetatype where StateMachineModel == Self {
  /// The type of the row's key.
  associatedtype StoreID: Hashable & Sendable & LosslessStringConvertible
  /// The row's key.
  var storeID: StoreID { get }
  /// The definition that drives the class: the `static let stateMachine` a `@StateMachine` class
  /// declares. Stores read it to make and check rows without an object at hand.
  static var stateMachine: StateMachineDefinition<Self> { get }
  /// The class's events, one case each, for the calls that address a row by id
  /// (`orders.fire(.pay, on: 42)`). ``StateMachine()`` generates the enum; a model that conforms
  /// by hand has none (``UndeclaredStateMachineName``) and uses strings.
  associatedtype EventName: StateMachineName = UndeclaredStateMachineName
  /// The class's states, one case each (a statechart's by their paths), for scopes
  /// (`orders.ids(in: .paid)`). Generated like ``EventName``.
  associatedtype StateName: StateMachineName = UndeclaredStateMachineName
}
