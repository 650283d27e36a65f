// The store protocol (the Persistence article): every rule of Persistence §3 is a property of each
// conforming store, and the conformance suite (Tests/StateMachinesTests/Persistence) checks them.

import Foundation

/// A place where machine objects persist, and through which they change state.
///
/// Each fire is one transaction (P1): the row is locked, a fresh object is loaded, the step runs
/// in memory (``StateMachineDefinition/storeStep(_:payload:on:)``), and the new machine columns,
/// one history row per microstep, the deadline and outbox rows are written together, with a
/// compare-and-set on the version. `after` callbacks, observers and streams run after the
/// commit, in the committing process, once (P5).
public protocol StateMachineStore<Model>: Sendable {
  /// The persisted class.
  associatedtype Model: StoreManagedStateMachine

  /// Inserts a new object in its initial configuration (its entry actions run, its deadlines are
  /// armed) at version 0.
  func insert(_ model: Model) async throws(StateMachineStoreError)

  /// A fresh object from the row with `id`, or `nil` when there is none.
  ///
  /// - Throws: ``StateMachineStoreError/unknownStoredState(id:state:)`` for a row whose state is
  ///   not in the definition (P12).
  func load(_ id: Model.StoreID) async throws(StateMachineStoreError) -> Model?

  /// Fires `event` on the row with `id`: waits for the row, then evaluates the event against its
  /// current state (P3).
  @discardableResult
  func fire(_ event: String, on id: Model.StoreID, payload: (any Encodable & Sendable)?, options: FireOptions)
    async throws(StateMachineStoreError) -> Fired<Model>

  /// Fires `event` on the row `model` was loaded from, provided the row is still at the version
  /// the object was loaded at; else ``StateMachineStoreError/conflict(id:expectedVersion:currentVersion:currentState:)``,
  /// or with ``FireOptions/Retry/reload(max:)`` a reload and another try (P4). `model` is never
  /// changed: the committed object is in the result.
  @discardableResult
  func fire(_ event: String, on model: Model, payload: (any Encodable & Sendable)?, options: FireOptions)
    async throws(StateMachineStoreError) -> Fired<Model>

  /// Puts the row into `state` without running callbacks (an operator's repair): one history row
  /// with cause ``StoredTransition/Cause/restore``, the deadlines re-armed (P8).
  func restore(_ id: Model.StoreID, to state: String, reason: String) async throws(StateMachineStoreError)

  /// Arms a deadline that belongs to no state (P8): `event` fires on the row after `delay`,
  /// whatever the row's state by then, and no exit deletes it.
  func post(_ event: String, to id: Model.StoreID, after delay: Duration) async throws(StateMachineStoreError)

  /// The ids of the committed rows in `state`, where a compound state matches its descendants
  /// (P14); at most `limit`, after `after` in the store's order of ids, for paging.
  func ids(in state: String, after: Model.StoreID?, limit: Int) async throws(StateMachineStoreError) -> [Model.StoreID]

  /// The number of committed rows in `state` (P14).
  func count(in state: String) async throws(StateMachineStoreError) -> Int

  /// One scheduler pass: fires up to `limit` due deadlines, oldest first, each exactly once
  /// (P9, P10, P11). Returns how many fired a transition or were consumed.
  func fireDueTimeouts(limit: Int) async throws(StateMachineStoreError) -> Int

  /// Delivers up to `limit` due outbox messages to their handlers (P16). Returns how many were
  /// delivered.
  func deliverOutbox(limit: Int) async throws(StateMachineStoreError) -> Int

  /// What the scheduler has left behind: parked deadlines and messages, and how long the oldest
  /// due deadline has waited (P11, P16). Cheap: the scheduler loops read it after every pass.
  func schedulerBacklog() async throws(StateMachineStoreError) -> StoreBacklog

  /// The row's history, oldest first.
  func history(of id: Model.StoreID) async throws(StateMachineStoreError) -> [StoredTransition]

  /// The row's pending deadlines, earliest first.
  func deadlines(of id: Model.StoreID) async throws(StateMachineStoreError) -> [StoredDeadline]

  /// What is inconsistent with the definition (P12).
  func verify() async throws(StateMachineStoreError) -> StoreReport
}

extension StateMachineStore {
  /// Fires `event` on the row with `id` (P3), without a payload, with default options.
  @discardableResult
  public func fire(_ event: String, on id: Model.StoreID, options: FireOptions = .init())
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    try await fire(event, on: id, payload: nil, options: options)
  }

  /// Fires `event` with `payload` on the row with `id` (P3), with default options.
  @discardableResult
  public func fire(_ event: String, on id: Model.StoreID, payload: any Encodable & Sendable)
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    try await fire(event, on: id, payload: payload, options: FireOptions())
  }

  /// Fires `event` on the row `model` was loaded from (P4), without a payload.
  @discardableResult
  public func fire(_ event: String, on model: Model, options: FireOptions = .init())
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    try await fire(event, on: model, payload: nil, options: options)
  }
}

/// One history row: one microstep of a row (P2).
public struct StoredTransition: Sendable, Hashable, Codable {
  /// Why the transition happened.
  public enum Cause: String, Sendable, Hashable, Codable {
    /// A fired event.
    case event
    /// A due deadline (P9).
    case timeout
    /// An operator's restore.
    case restore
    /// A migration to a changed definition (P12).
    case migration
  }

  /// The row's id, as text.
  public var entityID: String
  /// The row's version after this microstep; versions of a row are 1, 2, 3, … without gaps.
  public var version: Int64
  /// The event (empty for a restore or a migration).
  public var event: String
  /// The state before this microstep.
  public var from: String
  /// The state after it.
  public var to: String
  /// Why it happened.
  public var cause: Cause
  /// The microstep's event payload as JSON, when it was `Encodable`; `nil` otherwise.
  public var payload: Data?
  /// The request id of the fire, on the last row of its step (P6).
  public var requestID: UUID?
  /// For a timeout: when it was due (P9).
  public var dueAt: Date?
  /// When it happened, on the store's clock.
  public var at: Date

  /// Creates a history row.
  public init(
    entityID: String, version: Int64, event: String, from: String, to: String, cause: Cause, payload: Data? = nil,
    requestID: UUID? = nil, dueAt: Date? = nil, at: Date
  ) {
    self.payload = payload
    self.entityID = entityID
    self.version = version
    self.event = event
    self.from = from
    self.to = to
    self.cause = cause
    self.requestID = requestID
    self.dueAt = dueAt
    self.at = at
  }
}

/// A pending deadline row (P8).
public struct StoredDeadline: Sendable, Hashable {
  /// The deadline's own id, unique per store.
  public var id: Int64
  /// The row's id, as text.
  public var entityID: String
  /// The state whose entry armed it; `nil` for a posted event.
  public var state: String?
  /// The event it fires.
  public var event: String
  /// The row's version when it was armed.
  public var armedVersion: Int64
  /// When it is due, on the store's clock.
  public var dueAt: Date
  /// Failed attempts (P11).
  public var attempts: Int
  /// What the last failed attempt threw.
  public var lastError: String?
  /// Parked after too many failed attempts: it no longer fires, ``StateMachineStore/verify()`` lists it.
  public var isParked: Bool

  /// Creates a deadline row.
  public init(
    id: Int64, entityID: String, state: String?, event: String, armedVersion: Int64, dueAt: Date, attempts: Int = 0,
    lastError: String? = nil, isParked: Bool = false
  ) {
    self.id = id
    self.entityID = entityID
    self.state = state
    self.event = event
    self.armedVersion = armedVersion
    self.dueAt = dueAt
    self.attempts = attempts
    self.lastError = lastError
    self.isParked = isParked
  }
}

/// An outbox message (P16): inserted with its step, delivered after the commit, at least once.
public struct OutboxMessage: Sendable, Hashable {
  /// Unique per store: handlers use it to deduplicate.
  public var id: Int64
  /// The row's id, as text.
  public var entityID: String
  /// The row's version after the step that wrote it.
  public var version: Int64
  /// The topic a handler is registered for.
  public var topic: String
  /// The message, JSON-encoded.
  public var payload: Data
  /// Delivery attempts so far (this one included, when handed to a handler).
  public var attempts: Int

  /// Creates a message.
  public init(id: Int64, entityID: String, version: Int64, topic: String, payload: Data, attempts: Int = 0) {
    self.id = id
    self.entityID = entityID
    self.version = version
    self.topic = topic
    self.payload = payload
    self.attempts = attempts
  }
}

/// What ``StateMachineStore/verify()`` found (P12). Clean when every list is empty.
public struct StoreReport: Sendable, Hashable {
  /// Rows whose state is not in the definition: (id, state).
  public var unknownStates: [String: String] = [:]
  /// Deadlines whose state is not active or whose event is no longer a timeout of it.
  public var staleDeadlines: [StoredDeadline] = []
  /// Active timed states without their deadline: (id, state).
  public var missingDeadlines: [String: [String]] = [:]
  /// Deadlines parked after too many failed attempts (P11).
  public var parkedDeadlines: [StoredDeadline] = []
  /// Outbox messages parked after too many failed deliveries (P16).
  public var parkedMessages: [OutboxMessage] = []

  /// An empty report.
  public init() {}

  /// Whether nothing is wrong.
  public var isClean: Bool {
    unknownStates.isEmpty && staleDeadlines.isEmpty && missingDeadlines.isEmpty && parkedDeadlines.isEmpty
      && parkedMessages.isEmpty
  }
}
