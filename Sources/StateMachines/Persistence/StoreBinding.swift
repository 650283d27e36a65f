// An object bound to its store: the generated `try await order.pay()` of a store-managed class
// fires through the store that inserted or loaded the object, as one store step on the object's
// row with a compare-and-set on the version the object holds (Persistence P1–P5), and leaves the
// object holding the committed row.

extension StateMachineStore {
  /// Binds `model` to this store: its generated event methods (`try await order.pay()`) and
  /// ``StoreManagedStateMachine/fireInStore(_:payload:options:)`` fire through this store.
  ///
  /// A store binds every object it hands out or is handed: the object passed to `insert(_:)`,
  /// the one `load(_:)` returns and ``Fired/model``. Call it yourself only for an object you
  /// fetched another way; it then fires at the version it holds, and a stale one gets
  /// ``StateMachineStoreError/conflict(id:expectedVersion:currentVersion:currentState:)`` (P4).
  @_documentation(visibility: internal)
  public func _bind(_ model: Model) {
    let definition = model.stateMachineDefinition
    let extras = Triggers.extras(definition, of: model)
    let binding = StoreBinding(self)
    definition.locked(model) { extras.storeBinding = binding }
  }

  /// Binds the object a fire returns, and returns the result.
  @_documentation(visibility: internal)
  public func _bound(_ fired: Fired<Model>) -> Fired<Model> {
    _bind(fired.model)
    return fired
  }

  /// After `insert(_:)`: the caller's object holds the inserted row's committed columns (its
  /// initial configuration, version 0) and is bound to this store.
  @_documentation(visibility: internal)
  public func _adoptInserted(_ model: Model, _ committed: StoredMachineState) {
    model.stateMachineDefinition.adopt(committed, into: model)
    _bind(model)
  }
}

/// The store an object is bound to, in a box of a concrete class, so that finding it again is a
/// class check rather than a cast to a constrained existential.
final class StoreBinding<Model: StoreManagedStateMachine>: Sendable {
  let store: any StateMachineStore<Model>

  init(_ store: any StateMachineStore<Model>) { self.store = store }
}

extension StateMachineDefinition where Model: StoreManagedStateMachine {
  /// The store `model` is bound to, if any.
  func boundStore(of model: Model) -> (any StateMachineStore<Model>)? {
    locked(model) { (model._$stateMachineStorage.extras?.storeBinding as? StoreBinding<Model>)?.store }
  }

  /// Puts the committed columns `stored` into `model`, an object the caller holds, keeping its
  /// binding (``load(_:into:id:)``): after a fire or a lost race the object answers `state`,
  /// `is…` and `can…` for the committed row, and fires next at its version. A row the definition
  /// cannot load (P12) leaves the object unchanged.
  func adopt(_ stored: StoredMachineState, into model: Model) {
    try? load(stored, into: model, id: model.storeID.description)
  }

  /// One store step of `event` on `model`'s row through the store it is bound to (P1–P5):
  /// `true` when the transition committed, `false` when the definition refused the event
  /// (nothing written). After it returns, or throws
  /// ``StateMachineStoreError/conflict(id:expectedVersion:currentVersion:currentState:)``, the
  /// object holds the row's committed state and version.
  func fireInStore(
    _ event: String, payload: (any Encodable & Sendable)?, options: FireOptions, on model: Model
  ) async throws(StateMachineStoreError) -> Bool {
    guard let store = boundStore(of: model) else { throw .notBound(type: "\(Model.self)", event: event) }
    // P4 by id, at the version the object holds: the step runs on the row as committed (its
    // own columns too), and a row that moved on is a conflict.
    var atVersion = options
    atVersion.expectedVersion = locked(model) { model._$stateMachineStorage.extras?.storeVersion ?? 0 }
    do {
      let fired = try await store.fire(event, on: model.storeID, payload: payload, options: atVersion)
      adopt(storedState(of: fired.model), into: model)
      return true
    } catch {
      switch error {
      case .rejected:
        return false
      case .conflict(_, _, let version, let state):
        // P4: the caller decides what to do; the object now answers for the row as it is (its
        // history records too, from a reload; from the conflict itself if the reload fails).
        if let current = try? await store.load(model.storeID) {
          adopt(storedState(of: current), into: model)
        } else {
          adopt(StoredMachineState(state: state, version: version), into: model)
        }
        throw error
      default:
        throw error
      }
    }
  }

  /// ``fireInStore(_:payload:options:on:)`` for a generated store method.
  @_documentation(visibility: internal)
  public static func _$fireInStore(
    _ event: String, payload: (any Encodable & Sendable)?, on model: Model
  ) async throws(StateMachineStoreError) -> Bool {
    try await model.stateMachineDefinition.fireInStore(event, payload: payload, options: FireOptions(), on: model)
  }
}

extension StoreManagedStateMachine {
  /// Fires `event` by name as one store step on this object's row, through the store that
  /// inserted or loaded it, with a compare-and-set on the version the object holds (P1–P5). For
  /// dynamic code; a `@StateMachine` class has a compiler-checked method per event
  /// (`try await order.pay()`).
  ///
  /// - Returns: `true` when the transition committed, `false` when the definition refused the
  ///   event (no transition from the current state, guards false, an unknown name); nothing was
  ///   written then.
  /// - Throws: ``StateMachineStoreError/conflict(id:expectedVersion:currentVersion:currentState:)``
  ///   when another writer moved the row since this object's version (the object then holds the
  ///   row as it is), ``StateMachineStoreError/callbackFailed(event:underlying:)``,
  ///   ``StateMachineStoreError/notBound(type:event:)`` for an object no store bound, or a
  ///   database error. After it returns, the object holds the committed row.
  @discardableResult
  public func fireInStore(
    _ event: String, payload: (any Encodable & Sendable)? = nil, options: FireOptions = FireOptions()
  ) async throws(StateMachineStoreError) -> Bool {
    try await stateMachineDefinition.fireInStore(event, payload: payload, options: options, on: self)
  }
}
