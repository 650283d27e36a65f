// The reference store: a lock and some dictionaries. Every operation runs under the one lock, so
// each is trivially atomic and serial; the rules of Persistence §3 then follow from how a step's writes are
// computed (all first, applied together at the end), which is what the conformance suite checks
// and what the SQL stores must reproduce with transactions.

import Foundation

/// A store that keeps its rows in memory: the obviously correct reference the conformance suite
/// runs first, and a store for unit tests of applications.
///
/// Objects are kept as their JSON (`Codable`) and decoded afresh for every step, so a step that
/// fails leaves no trace and an object the caller holds never changes. It keeps every rule of a
/// persisted store: one atomic step per fire with a compare-and-set on the version (P1–P4),
/// `after` callbacks after the commit (P5), request ids (P6), durable deadlines on its
/// ``StoreClock`` (P8–P11), scopes (P14) and an outbox (P16).
///
/// One lock guards the whole store, so ``FireOptions/LockMode/noWait`` answers
/// ``StateMachineStoreError/locked(id:)`` whenever any operation holds it, not only one on the
/// same row. That lock is also what makes it `Sendable` (`@unchecked`): every mutable property is
/// read and written only under it; the others are `let`s.
public final class InMemoryStateMachineStore<Model: StoreManagedStateMachine & Codable>: StateMachineStore,
  @unchecked Sendable
{
  /// One row: the object's JSON and its machine columns.
  struct Row {
    var data: Data
    var machine: StoredMachineState
  }

  /// A recorded request id (P6).
  struct Request {
    let entityID: String
    let event: String
    let from: String
    let to: String
    let version: Int64
    let transitions: [CompletedTransition]
  }

  /// A message and its delivery state (Persistence §8).
  struct Pending {
    var message: OutboxMessage
    var availableAt: Date
    var lastError: String?
    var isParked = false
  }

  /// A step that was written, with its work for after the commit.
  struct Written {
    /// `nil` for a replayed request: nothing ran, nothing is held back.
    let step: StoreStep?
    let fired: Fired<Model>
  }

  let lock = NSLock()
  let definition: StateMachineDefinition<Model>
  let clock: StoreClock
  let configuration: StoreConfiguration<Model>
  var rows: [String: Row] = [:]
  var keys: [String: Model.StoreID] = [:]
  var history: [String: [StoredTransition]] = [:]
  var requests: [UUID: Request] = [:]
  var deadlineRows: [Int64: StoredDeadline] = [:]
  var nextDeadlineID: Int64 = 1
  var outbox: [Int64: Pending] = [:]
  var nextMessageID: Int64 = 1
  var handlers: [String: @Sendable (OutboxMessage) async throws -> Void] = [:]
  /// Test hook (P6): the next write is applied, then reported as a commit of unknown outcome.
  var loseNextCommit = false

  /// An empty store for `definition`'s objects, with deadlines on `clock` (``StoreClock/database``
  /// and ``StoreClock/system`` are both the wall clock here).
  public init(
    _ definition: StateMachineDefinition<Model>, clock: StoreClock = .system,
    configuration: StoreConfiguration<Model> = .init()
  ) {
    self.definition = definition
    self.clock = clock
    self.configuration = configuration
  }

  /// An empty store for `Model`'s objects, driven by `Model.stateMachine`.
  public convenience init(clock: StoreClock = .system, configuration: StoreConfiguration<Model> = .init()) {
    self.init(Model.stateMachine, clock: clock, configuration: configuration)
  }

  /// Registers the handler of an outbox topic (P16): it gets each message at least once, so it
  /// must be idempotent (use the message's id).
  public func handle(_ topic: String, _ handler: @escaping @Sendable (OutboxMessage) async throws -> Void) {
    lock.locked { handlers[topic] = handler }
  }

  /// Makes the next write report ``StateMachineStoreError/commitOutcomeUnknown(requestID:underlying:)``
  /// after it was applied, as a connection that drops during COMMIT would (for tests of P6).
  @_spi(Testing) public func loseNextCommitOutcome() {
    lock.locked { loseNextCommit = true }
  }

  // MARK: StateMachineStore

  public func insert(_ model: Model) async throws(StateMachineStoreError) {
    let key = model.storeID.description
    let fresh = try copy(model)
    let step = try definition.storeStart(on: fresh)
    let data = try encode(fresh)
    let written: StoreStep = try lock.locked { () throws(StateMachineStoreError) -> StoreStep in
      guard rows[key] == nil else { throw .database(InMemoryStoreFailure("a row with id '\(key)' exists")) }
      rows[key] = Row(data: data, machine: step.after)
      keys[key] = model.storeID
      armDeadlines(step, key)
      return step
    }
    _adoptInserted(model, written.after)
    written.committed()
  }

  public func load(_ id: Model.StoreID) async throws(StateMachineStoreError) -> Model? {
    let key = id.description
    guard let row = lock.locked({ rows[key] }) else { return nil }
    let model = try fresh(key, row)
    _bind(model)
    return model
  }

  public func fire(_ event: String, on id: Model.StoreID, payload: (any Encodable & Sendable)?, options: FireOptions)
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    let key = id.description
    return _bound(
      try await options.reloadingOnConflict(expected: options.expectedVersion, object: nil as Model?) {
        expected, _ throws(StateMachineStoreError) in
        try run(event, key: key, payload: payload, options: options, expectedVersion: expected, on: nil)
      })
  }

  public func fire(_ event: String, on model: Model, payload: (any Encodable & Sendable)?, options: FireOptions)
    async throws(StateMachineStoreError) -> Fired<Model>
  {
    let key = model.storeID.description
    // P4: the step runs on a copy of the caller's object (its own columns as the caller set
    // them), provided the row is still at the object's version.
    let machine = definition.storedState(of: model)
    let object = try copy(model)
    try definition.load(machine, into: object, id: key)
    // P4: a stale object gets the conflict, or reloads and tries again.
    return _bound(
      try await options.reloadingOnConflict(expected: machine.version, object: object) {
        expected, object throws(StateMachineStoreError) in
        try run(event, key: key, payload: payload, options: options, expectedVersion: expected, on: object)
      })
  }

  public func restore(_ id: Model.StoreID, to state: String, reason: String) async throws(StateMachineStoreError) {
    let key = id.description
    let written = try lock.locked { () throws(StateMachineStoreError) -> Written in
      guard let row = rows[key] else { throw .notFound(id: key) }
      let model = try fresh(key, row)
      let step = try definition.storeRestore(state, on: model)
      return try write(step, model, key, cause: .restore, requestID: nil, dueAt: nil)
    }
    written.step?.committed()
  }

  public func post(_ event: String, to id: Model.StoreID, after delay: Duration) async throws(StateMachineStoreError) {
    let key = id.description
    try lock.locked { () throws(StateMachineStoreError) in
      guard let row = rows[key] else { throw .notFound(id: key) }
      deadlineRows[nextDeadlineID] = StoredDeadline(
        id: nextDeadlineID, entityID: key, state: nil, event: event, armedVersion: row.machine.version,
        dueAt: clock.now + delay.storeSeconds)
      nextDeadlineID += 1
    }
  }

  /// Inserts a deadline row behind the store's back, as an older definition or a hand-written SQL
  /// insert would (for tests of P12).
  @_spi(Testing) public func insertDeadline(_ deadline: StoredDeadline) {
    lock.locked { deadlineRows[deadline.id] = deadline }
  }

  public func ids(in state: String, after: Model.StoreID?, limit: Int) async throws(StateMachineStoreError)
    -> [Model.StoreID]
  {
    let start = after?.description
    return lock.locked {
      rows.filter { definition.isStored($0.value.machine.state, in: state) }.keys
        .filter { key in start.map { key > $0 } ?? true }.sorted().prefix(max(0, limit)).compactMap { keys[$0] }
    }
  }

  public func count(in state: String) async throws(StateMachineStoreError) -> Int {
    lock.locked { rows.values.filter { definition.isStored($0.machine.state, in: state) }.count }
  }

  public func history(of id: Model.StoreID) async throws(StateMachineStoreError) -> [StoredTransition] {
    lock.locked { history[id.description] ?? [] }
  }

  public func deadlines(of id: Model.StoreID) async throws(StateMachineStoreError) -> [StoredDeadline] {
    let key = id.description
    return lock.locked {
      deadlineRows.values.filter { $0.entityID == key }.sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }
    }
  }

  /// The committed machine columns of a row (for tests and tools).
  public func storedState(of id: Model.StoreID) -> StoredMachineState? {
    lock.locked { rows[id.description]?.machine }
  }

  /// Overwrites a row's machine columns behind the store's back, as a bad migration or a
  /// hand-written SQL update would (for tests of P12).
  @_spi(Testing) public func overwrite(_ id: Model.StoreID, with machine: StoredMachineState) {
    lock.locked { rows[id.description]?.machine = machine }
  }

  // MARK: The transaction

  /// One fire as one transaction (P1): under the lock (P3), load a fresh object (or take the
  /// caller's copy, `object`), check the version (P4), run the step, apply every write together;
  /// then, outside the lock, the held-back callbacks (P5).
  func run(
    _ event: String, key: String, payload: (any Encodable & Sendable)?, options: FireOptions, expectedVersion: Int64?,
    on object: Model?
  ) throws(StateMachineStoreError) -> Fired<Model> {
    if options.lock == .noWait {
      guard lock.try() else { throw .locked(id: key) }
    } else {
      lock.lock()
    }
    let result: Result<Written, StateMachineStoreError>
    do {
      result = .success(
        try transaction(
          event, key: key, payload: payload, requestID: options.requestID, expected: expectedVersion, on: object))
    } catch {
      result = .failure(error)
    }
    let lost = loseNextCommit && (try? result.get()) != nil
    if lost { loseNextCommit = false }
    lock.unlock()
    let written = try result.get()
    if lost {
      // P7: the commit happened but its caller cannot know; its `after` callbacks never run.
      throw .commitOutcomeUnknown(requestID: options.requestID, underlying: InMemoryStoreFailure("connection lost"))
    }
    written.step?.committed()
    return written.fired
  }

  /// The body of ``run(_:key:payload:options:expectedVersion:)``, under the lock.
  private func transaction(
    _ event: String, key: String, payload: (any Encodable & Sendable)?, requestID: UUID?, expected: Int64?,
    on object: Model?
  ) throws(StateMachineStoreError) -> Written {
    if let requestID, let request = requests[requestID] {
      // P6: the recorded outcome again, nothing written.
      guard request.entityID == key, request.event == event else {
        throw .requestIDReused(requestID: requestID, id: key, event: event)
      }
      guard let row = rows[key] else { throw .notFound(id: key) }
      let fired = Fired(
        model: try fresh(key, row), from: request.from, to: request.to, version: request.version,
        transitions: request.transitions, replayed: true)
      return Written(step: nil, fired: fired)
    }
    guard let row = rows[key] else { throw .notFound(id: key) }
    if let expected, expected != row.machine.version {
      throw .conflict(
        id: key, expectedVersion: expected, currentVersion: row.machine.version, currentState: row.machine.state)
    }
    let model: Model
    if let object { model = object } else { model = try fresh(key, row) }
    let step = try definition.storeStep(event, payload: payload, on: model)
    return try write(step, model, key, cause: .event, requestID: requestID, dueAt: nil)
  }

  /// Applies a step's writes, all computed before anything changes: the row (compare-and-set on
  /// the version, P4), history rows (P2), deadlines (P8), outbox messages (P16), the request id
  /// (P6). Under the lock.
  func write(
    _ step: StoreStep, _ model: Model, _ key: String, cause: StoredTransition.Cause, requestID: UUID?, dueAt: Date?
  ) throws(StateMachineStoreError) -> Written {
    guard let row = rows[key], row.machine.version == step.before.version else {
      let current = rows[key]?.machine
      throw .conflict(
        id: key, expectedVersion: step.before.version, currentVersion: current?.version ?? -1,
        currentState: current?.state ?? "")
    }
    let data = try encode(model)
    let now = clock.now
    var version = step.before.version
    var rowsOfHistory: [StoredTransition] = []
    for transition in step.transitions {
      version += 1
      rowsOfHistory.append(
        StoredTransition(
          entityID: key, version: version, event: transition.event, from: transition.from, to: transition.to,
          cause: cause, payload: try encodedPayload(of: transition), dueAt: dueAt, at: now))
    }
    let messages = try configuration.outboxMessages(for: step, model: model, key: key)
    if let requestID, !rowsOfHistory.isEmpty { rowsOfHistory[rowsOfHistory.count - 1].requestID = requestID }
    // Nothing has changed so far: from here on, everything is applied.
    rows[key] = Row(data: data, machine: step.after)
    history[key, default: []].append(contentsOf: rowsOfHistory)
    deadlineRows = deadlineRows.filter { !($0.value.entityID == key && $0.value.state.map(step.exited.contains) == true) }
    armDeadlines(step, key)
    for var message in messages {
      message.id = nextMessageID
      nextMessageID += 1
      outbox[message.id] = Pending(message: message, availableAt: now)
    }
    let fired = Fired(
      model: model, from: step.before.state, to: step.after.state, version: step.after.version,
      transitions: step.transitions)
    if let requestID {
      requests[requestID] = Request(
        entityID: key, event: step.event, from: fired.from, to: fired.to, version: fired.version,
        transitions: fired.transitions)
    }
    return Written(step: step, fired: fired)
  }

  /// Inserts the deadline rows a step armed, due on the store's clock (P8).
  func armDeadlines(_ step: StoreStep, _ key: String) {
    let now = clock.now
    for timeout in step.armed {
      deadlineRows[nextDeadlineID] = StoredDeadline(
        id: nextDeadlineID, entityID: key, state: timeout.state, event: timeout.event,
        armedVersion: step.after.version, dueAt: now + timeout.delay.storeSeconds)
      nextDeadlineID += 1
    }
  }

  // MARK: Objects

  /// A fresh object from a row (P1), or the row's error (P12).
  func fresh(_ key: String, _ row: Row) throws(StateMachineStoreError) -> Model {
    let model: Model
    do {
      model = try JSONDecoder().decode(Model.self, from: row.data)
    } catch {
      throw .database(error)
    }
    try definition.load(row.machine, into: model, id: key)
    return model
  }

  /// A copy of an object the caller holds, so that the store never changes it.
  func copy(_ model: Model) throws(StateMachineStoreError) -> Model {
    do {
      return try JSONDecoder().decode(Model.self, from: try encode(model))
    } catch {
      throw .database(error)
    }
  }

  /// A history row's payload: the microstep's payload as JSON when it is `Encodable`.
  private func encodedPayload(of transition: CompletedTransition) throws(StateMachineStoreError) -> Data? {
    guard let payload = transition.payload as? any Encodable else { return nil }
    do {
      return try JSONEncoder().encode(payload)
    } catch {
      throw .database(error)
    }
  }

  private func encode(_ model: Model) throws(StateMachineStoreError) -> Data {
    do {
      return try JSONEncoder().encode(model)
    } catch {
      throw .database(error)
    }
  }
}

/// A failure of the in-memory store itself.
public struct InMemoryStoreFailure: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
