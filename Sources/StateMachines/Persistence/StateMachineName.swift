// Compiler-checked names for the calls that address a row by id: `orders.fire(.pay, on: 42)`,
// `orders.ids(in: .paid)`. `@StateMachine` generates the two enums of a store-managed class
// (`StoreManagedStateMachine.EventName`, `.StateName`), so business logic needs no string
// literal; the string forms stay for dynamic definitions and tools.

/// An event's or a state's name, checked by the compiler: a case of the `EventName` or
/// `StateName` enum that ``StateMachine()`` generates in a store-managed class. Its raw value is
/// the name as the definition declares it.
public protocol StateMachineName: RawRepresentable, Hashable, Sendable, CaseIterable where RawValue == String {}

/// The names of a store-managed class that declares none: an enum without cases, so that a
/// model conforming to ``StoreManagedStateMachine`` by hand is addressed by strings alone.
public enum UndeclaredStateMachineName: StateMachineName {
  /// No name: there is no case.
  public var rawValue: String {
    switch self {}
  }

  /// `nil`: no string is a case.
  public init?(rawValue: String) {
    return nil
  }
}

extension StateMachineStore {
  /// Fires `event` on the row with `id`: waits for the row, then evaluates the event against its
  /// current state (P3).
  @discardableResult
  public func fire(
    _ event: Model.EventName, on id: Model.StoreID, payload: (any Encodable & Sendable)? = nil,
    options: FireOptions = FireOptions()
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    try await fire(event.rawValue, on: id, payload: payload, options: options)
  }

  /// Fires `event` on the row `model` was loaded from, provided the row is still at its version (P4).
  @discardableResult
  public func fire(
    _ event: Model.EventName, on model: Model, payload: (any Encodable & Sendable)? = nil,
    options: FireOptions = FireOptions()
  ) async throws(StateMachineStoreError) -> Fired<Model> {
    try await fire(event.rawValue, on: model, payload: payload, options: options)
  }

  /// The ids of the committed rows in `state`, a compound state matching its descendants (P14).
  public func ids(in state: Model.StateName, after: Model.StoreID? = nil, limit: Int = .max)
    async throws(StateMachineStoreError) -> [Model.StoreID]
  {
    try await ids(in: state.rawValue, after: after, limit: limit)
  }

  /// The number of committed rows in `state` (P14).
  public func count(in state: Model.StateName) async throws(StateMachineStoreError) -> Int {
    try await count(in: state.rawValue)
  }

  /// Arms a deadline that fires `event` on the row after `delay`, whatever its state by then (P8).
  public func post(_ event: Model.EventName, to id: Model.StoreID, after delay: Duration)
    async throws(StateMachineStoreError)
  {
    try await post(event.rawValue, to: id, after: delay)
  }

  /// Puts the row into `state` without running callbacks (an operator's repair, P8).
  public func restore(_ id: Model.StoreID, to state: Model.StateName, reason: String)
    async throws(StateMachineStoreError)
  {
    try await restore(id, to: state.rawValue, reason: reason)
  }
}
