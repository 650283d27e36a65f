// A store of run-time definitions' instances (Persistence §11): `DynamicStateMachine` rows in
// the store-owned `sm_instances` table under a machine name, with string ids. Both database
// adapters have one (`SQLiteInstanceStore`, `PostgresInstanceStore`); the `statemachine store`
// commands are written once against this protocol.

/// A store of `DynamicStateMachine` instances of one run-time definition (a JSON or SCXML
/// chart), addressed by string ids.
///
/// It keeps every rule of ``StateMachineStore`` (P1–P16); the difference is the model: an instance
/// is the machine columns alone, in the library's own table.
public protocol StateMachineInstanceStore: Sendable {
  /// The definition the instances follow.
  var definition: StateMachineDefinition<DynamicStateMachine> { get }

  /// Inserts an instance `id` in the initial configuration at version 0, its deadlines armed (P8).
  func insert(_ id: String) async throws(StateMachineStoreError)

  /// A fresh object from the row `id`, or `nil`.
  ///
  /// - Throws: `StateMachineStoreError.unknownStoredState` for a row whose state is
  ///   not in the definition (P12).
  func load(_ id: String) async throws(StateMachineStoreError) -> DynamicStateMachine?

  /// Fires `event` on the row `id`, which it waits for and evaluates the event against (P3).
  @discardableResult
  func fire(_ event: String, on id: String, payload: (any Encodable & Sendable)?, options: FireOptions)
    async throws(StateMachineStoreError) -> Fired<DynamicStateMachine>

  /// Puts the row into `state` without callbacks: one history row, deadlines re-armed.
  func restore(_ id: String, to state: String) async throws(StateMachineStoreError)

  /// Moves every row stored in `old` to `new` (P12); returns how many moved.
  @discardableResult
  func migrate(from old: String, to new: String) async throws(StateMachineStoreError) -> Int

  /// The ids of the rows in `state`, a compound state matching its descendants (P14); at most
  /// `limit`, after `after` in the store's order of ids.
  func ids(in state: String, after: String?, limit: Int) async throws(StateMachineStoreError) -> [String]

  /// Every id, in the store's order.
  func allIDs() async throws(StateMachineStoreError) -> [String]

  /// The number of rows in `state` (P14).
  func count(in state: String) async throws(StateMachineStoreError) -> Int

  /// One scheduler pass (P9–P11): fires up to `limit` due deadlines, each exactly once (P10);
  /// returns how many were consumed.
  func fireDueTimeouts(limit: Int) async throws(StateMachineStoreError) -> Int

  /// The committed machine columns of the row `id`.
  func storedState(of id: String) async throws(StateMachineStoreError) -> StoredMachineState?

  /// The row's history, oldest first.
  func history(of id: String) async throws(StateMachineStoreError) -> [StoredTransition]

  /// The row's pending deadlines, earliest first.
  func deadlines(of id: String) async throws(StateMachineStoreError) -> [StoredDeadline]

  /// What is inconsistent with the definition (P12).
  func verify() async throws(StateMachineStoreError) -> StoreReport
}

extension StateMachineInstanceStore where Self: _StoreEngineBacked, Model == DynamicStateMachine {
  public func insert(_ id: String) async throws(StateMachineStoreError) {
    try await _engine.insert(DynamicStateMachine(_engine.definition), key: id)
  }

  public func load(_ id: String) async throws(StateMachineStoreError) -> DynamicStateMachine? {
    try await _engine.load(id)
  }

  @discardableResult
  public func fire(
    _ event: String, on id: String, payload: (any Encodable & Sendable)? = nil, options: FireOptions = .init()
  ) async throws(StateMachineStoreError) -> Fired<DynamicStateMachine> {
    try await _engine.fire(event, key: id, payload: payload, options: options, object: nil)
  }

  public func restore(_ id: String, to state: String) async throws(StateMachineStoreError) {
    try await _engine.restore(id, to: state)
  }

  public func ids(in state: String, after: String? = nil, limit: Int = .max) async throws(StateMachineStoreError)
    -> [String]
  {
    try await _engine.ids(in: state, after: after, limit: limit)
  }

  public func allIDs() async throws(StateMachineStoreError) -> [String] {
    try await _engine.allIDs()
  }

  public func fireDueTimeouts(limit: Int = 32) async throws(StateMachineStoreError) -> Int {
    try await _engine.fireDueTimeouts(limit: limit)
  }

  public func storedState(of id: String) async throws(StateMachineStoreError) -> StoredMachineState? {
    try await _engine.storedState(id)
  }

  public func history(of id: String) async throws(StateMachineStoreError) -> [StoredTransition] {
    try await _engine.history(of: id)
  }

  public func deadlines(of id: String) async throws(StateMachineStoreError) -> [StoredDeadline] {
    try await _engine.deadlines(of: id)
  }
}
