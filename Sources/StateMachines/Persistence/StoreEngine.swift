// The one implementation behind a database store's public members. The SQLite and PostgreSQL
// adapters each write their step engine once, conform it to `_StoreEngine`, and their public store
// types (record stores and instance stores) get every forwarding member from the extensions
// below, so the forwarding is written once for both databases.

/// The engine of a database store: every operation of ``StateMachineStore`` on rows addressed by
/// their id as text.
///
/// For the store adapters of this package (`StateMachinesSQLite`, `StateMachinesPostgres`); not
/// meant for applications, which use ``StateMachineStore`` and ``StateMachineInstanceStore``.
public protocol _StoreEngine<Model>: AnyObject, Sendable {
  /// The persisted class.
  associatedtype Model: StateMachineObject & SendableMetatype

  /// The definition the rows follow.
  var definition: StateMachineDefinition<Model> { get }

  /// Inserts `model` as the row `key`, in its initial configuration, at version 0, and returns
  /// the machine columns it committed.
  @discardableResult
  func insert(_ model: Model, key: String) async throws(StateMachineStoreError) -> StoredMachineState
  /// A fresh object from the row `key`, or `nil`.
  func load(_ key: String) async throws(StateMachineStoreError) -> Model?
  /// Fires `event` on the row `key` (P3), or on `object`'s copy when it is still current (P4).
  func fire(_ event: String, key: String, payload: (any Encodable & Sendable)?, options: FireOptions, object: Model?)
    async throws(StateMachineStoreError) -> Fired<Model>
  /// Puts the row into `state` without callbacks.
  func restore(_ key: String, to state: String) async throws(StateMachineStoreError)
  /// Arms a deadline that belongs to no state (P8).
  func post(_ event: String, to key: String, after delay: Duration) async throws(StateMachineStoreError)
  /// The ids of the rows in `state` (P14).
  func ids(in state: String, after: String?, limit: Int) async throws(StateMachineStoreError) -> [String]
  /// Every id, in order.
  func allIDs() async throws(StateMachineStoreError) -> [String]
  /// The number of rows in `state` (P14).
  func count(in state: String) async throws(StateMachineStoreError) -> Int
  /// One scheduler pass (P9–P11).
  func fireDueTimeouts(limit: Int) async throws(StateMachineStoreError) -> Int
  /// One outbox pass (P16).
  func deliverOutbox(limit: Int) async throws(StateMachineStoreError) -> Int
  /// Parked deadlines and messages, and the oldest due deadline (P11, P16).
  func schedulerBacklog() async throws(StateMachineStoreError) -> StoreBacklog
  /// The row's history, oldest first.
  func history(of key: String) async throws(StateMachineStoreError) -> [StoredTransition]
  /// The pending deadlines of the row `key`, or of every row, earliest first.
  func deadlines(of key: String?) async throws(StateMachineStoreError) -> [StoredDeadline]
  /// What is inconsistent with the definition (P12).
  func verify() async throws(StateMachineStoreError) -> StoreReport
  /// Moves every row stored in `old` to `new` (P12).
  func migrate(from old: String, to new: String) async throws(StateMachineStoreError) -> Int
  /// The committed machine columns of the row `key`.
  func storedState(_ key: String) async throws(StateMachineStoreError) -> StoredMachineState?
  /// The messages not delivered yet, and whether each is parked.
  func pendingMessages() async throws(StateMachineStoreError) -> [(message: OutboxMessage, isParked: Bool)]
}

/// A public store type whose members forward to a ``_StoreEngine``.
///
/// For the store adapters of this package; conforming gives a type the members of
/// ``StateMachineStore`` or ``StateMachineInstanceStore`` that it adopts.
public protocol _StoreEngineBacked: Sendable {
  /// The persisted class.
  associatedtype Model: StateMachineObject & SendableMetatype
  /// The engine every member forwards to.
  var _engine: any _StoreEngine<Model> { get }
}

extension _StoreEngineBacked {
  /// The definition the rows follow.
  public var definition: StateMachineDefinition<Model> { _engine.definition }

  /// Moves every row stored in `old`, a state the definition may no longer have, to `new`
  /// (P12): no callback runs, each row gets a history row with cause
  /// `StoredTransition.Cause.migration`, and its state deadlines are replaced by those of the
  /// new configuration. One transaction: all rows move, or none. Returns how many moved.
  @discardableResult
  public func migrate(from old: String, to new: String) async throws(StateMachineStoreError) -> Int {
    try await _engine.migrate(from: old, to: new)
  }

  /// What is inconsistent with the definition (P12).
  public func verify() async throws(StateMachineStoreError) -> StoreReport {
    try await _engine.verify()
  }

  /// The number of committed rows in `state`, a compound state matching its descendants (P14).
  public func count(in state: String) async throws(StateMachineStoreError) -> Int {
    try await _engine.count(in: state)
  }

  /// The messages not delivered yet, parked ones included (P16).
  public func pendingMessages() async throws(StateMachineStoreError) -> [OutboxMessage] {
    try await _engine.pendingMessages().map(\.message)
  }
}

extension StateMachineStore where Self: _StoreEngineBacked {
  public func insert(_ model: Model) async throws(StateMachineStoreError) {
    _adoptInserted(model, try await _engine.insert(model, key: model.storeID.description))
  }

  public func load(_ id: Model.StoreID) async throws(StateMachineStoreError) -> Model? {
    guard let model = try await _engine.load(id.description) else { return nil }
    _bind(model)
    return model
  }

  @discardableResult
  public func fire(_ event: String, on id: Model.StoreID, payload: (any Encodable & Sendable)?, options: FireOptions)
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    _bound(try await _engine.fire(event, key: id.description, payload: payload, options: options, object: nil))
  }

  @discardableResult
  public func fire(_ event: String, on model: Model, payload: (any Encodable & Sendable)?, options: FireOptions)
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    _bound(
      try await _engine.fire(event, key: model.storeID.description, payload: payload, options: options, object: model))
  }

  public func restore(_ id: Model.StoreID, to state: String, reason: String) async throws(StateMachineStoreError) {
    try await _engine.restore(id.description, to: state)
  }

  public func post(_ event: String, to id: Model.StoreID, after delay: Duration) async throws(StateMachineStoreError) {
    try await _engine.post(event, to: id.description, after: delay)
  }

  public func ids(in state: String, after: Model.StoreID?, limit: Int) async throws(StateMachineStoreError)
    -> [Model.StoreID]
  {
    try await _engine.ids(in: state, after: after?.description, limit: limit).compactMap(Model.StoreID.init)
  }

  public func fireDueTimeouts(limit: Int) async throws(StateMachineStoreError) -> Int {
    try await _engine.fireDueTimeouts(limit: limit)
  }

  public func deliverOutbox(limit: Int) async throws(StateMachineStoreError) -> Int {
    try await _engine.deliverOutbox(limit: limit)
  }

  public func schedulerBacklog() async throws(StateMachineStoreError) -> StoreBacklog {
    try await _engine.schedulerBacklog()
  }

  public func history(of id: Model.StoreID) async throws(StateMachineStoreError) -> [StoredTransition] {
    try await _engine.history(of: id.description)
  }

  public func deadlines(of id: Model.StoreID) async throws(StateMachineStoreError) -> [StoredDeadline] {
    try await _engine.deadlines(of: id.description)
  }

  /// The committed machine columns of a row.
  public func storedState(of id: Model.StoreID) async throws(StateMachineStoreError) -> StoredMachineState? {
    try await _engine.storedState(id.description)
  }
}
