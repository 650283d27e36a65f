// The row-independent half of the fast path (Persistence §6): for one event, the map of its
// pure steps, the statement's text and its constant binds, made once per event and store, so
// that a fire only binds its key and payload and sends one statement.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

/// The fast path of one event, as far as it does not depend on the row: what
/// ``StateMachineDefinition/pureStoreTransitions(_:configuration:)`` says of the event, as SQL.
struct PostgresFastPlan: Sendable {
  /// The event as the history row and the result name it (the transition's).
  let event: String
  /// The state each pure step enters, by the state it leaves.
  let targets: [String: String]
  /// The statement's text, by whether it waits for the row's lock (not: `NOWAIT`) and whether
  /// it compares the row's version with an expected one (`FireOptions.expectedVersion`, P4).
  let sql: [PostgresFastPlanShape: String]
  /// The binds `$1…$n` of the text: the map of states, the machine, the event and the cause.
  let constants: PostgresStatement
  /// Whether the statement writes a history row, whose payload (and time, unless the store's
  /// clock is the database's) the fire binds.
  let history: Bool
  let bindsTime: Bool
  /// The texts of the statements of several fires at once, by size (``batchStatement(_:at:)``).
  let batchSQL: [String]
  /// The fires of this event waiting for a statement; `nil` when the store sends each alone.
  let batcher: PostgresFastBatcher?

  /// The statement of one fire on the row with `key`: the constants, then the key, for the
  /// history row the payload as JSON text and the time `at`, and last the expected version.
  func statement(
    key: String, payload: @autoclosure () throws -> String?, at: @autoclosure () -> Date, noWait: Bool,
    expectedVersion: Int64? = nil
  ) rethrows -> PostgresStatement {
    let shape = PostgresFastPlanShape(noWait: noWait, comparesVersion: expectedVersion != nil)
    var statement = constants
    statement.sql = sql[shape]!
    _ = statement.bind(key)
    if history { _ = statement.bind(try payload()) }
    if bindsTime { _ = statement.bind(at()) }
    if let expectedVersion { _ = statement.bind(expectedVersion) }
    return statement
  }

  /// The sizes of batch statements: a batch goes as the smallest that holds it.
  static let batchSizes = [1, 2, 4, 8, 16, 32, 64]

  /// The statement of the fires of a batch, each on its own row (keys are distinct): the
  /// constants, the time `at` when the store's clock is not the database's, then each fire's key,
  /// the version its row must be at (or NULL) and, for the history rows, its payload as JSON
  /// text; NULL keys up to the statement's size.
  func batchStatement(_ fires: [PostgresFastBatcher.Fire], at: @autoclosure () -> Date) -> PostgresStatement {
    let size = Self.batchSizes.firstIndex { $0 >= fires.count } ?? Self.batchSizes.count - 1
    var statement = constants
    statement.sql = batchSQL[size]
    if bindsTime { _ = statement.bind(at()) }
    for place in 0..<Self.batchSizes[size] {
      let fire = place < fires.count ? fires[place] : nil
      _ = statement.bind(fire?.key)
      _ = statement.bind(fire?.expectedVersion)
      if history { _ = statement.bind(fire?.payload) }
    }
    return statement
  }
}

/// The variants of a fast plan's statement.
struct PostgresFastPlanShape: Hashable, CaseIterable {
  /// `FOR UPDATE NOWAIT`: fail at once on a locked row (P3).
  let noWait: Bool
  /// The row must be at the expected version, the last bind (P4 by id).
  let comparesVersion: Bool

  static let allCases = [false, true].flatMap { noWait in
    [false, true].map { PostgresFastPlanShape(noWait: noWait, comparesVersion: $0) }
  }
}

/// The fast plans of one store, by event: `nil` for an event that never takes a pure step.
///
/// `@unchecked Sendable`: `plans` is read and written only under `lock`.
final class PostgresFastPlans: @unchecked Sendable {
  private let lock = NSLock()
  private var plans: [String: PostgresFastPlan?] = [:]

  /// The plan of `event`: `.some(nil)` when the event has none, `nil` when not made yet.
  func plan(for event: String) -> PostgresFastPlan?? {
    lock.withLock { plans[event] }
  }

  /// Keeps `plan` for `event`, unless a plan was kept meanwhile; returns the one kept, so that
  /// every fire of an event shares one batcher.
  func store(_ plan: PostgresFastPlan?, for event: String) -> PostgresFastPlan? {
    lock.withLock {
      if let kept = plans[event] { return kept }
      plans[event] = .some(plan)
      return plan
    }
  }

  /// How many statements carried more than one fire, over every event.
  var sharedStatements: Int {
    lock.withLock { plans.values }.reduce(0) { $0 + ($1?.batcher?.sharedStatements ?? 0) }
  }
}

extension PostgresStepEngine {
  /// The fast plan of `event`, made on first use (the id column's type may need `connection`).
  func fastPlan(_ event: String, _ connection: PostgresConnection) async throws(StateMachineStoreError)
    -> PostgresFastPlan?
  {
    if let known = fastPlans.plan(for: event) { return known }
    let plan = makeFastPlan(event, idType: try await idType(connection))
    return fastPlans.store(plan, for: event)
  }

  /// The plan of `event`, or `nil` when no state takes a pure step on it.
  ///
  /// One statement in three parts. `old` reads the row's state and version (with `NOWAIT`, it
  /// locks the row or fails at once, P3). `moved` writes the row through the event's map of
  /// states, at version + 1, only while the row is still at the version `old` read (P4): a
  /// writer that committed in between makes it write nothing, and the caller takes the locked
  /// path, which evaluates the event against the committed row (P3). `history` inserts one row
  /// from `moved`'s, so it runs after the write and only for a write (P1, P2). Own columns are
  /// untouched (no code ran); no deadline or outbox row (a pure step has none, P8, P16).
  func makeFastPlan(_ event: String, idType: String) -> PostgresFastPlan? {
    let transitions = definition.pureStoreTransitions(event, configuration: configuration)
    guard
      let first = transitions.first,
      let step = definition.pureStoreStep(
        event, payload: nil, from: StoredMachineState(state: first.from), configuration: configuration)
    else { return nil }
    var constants = PostgresStatement()
    let map = transitions.map {
      "(CAST(\(constants.bind($0.from)) AS text), CAST(\(constants.bind($0.to)) AS text))"
    }
    let machine = table.isShared || configuration.history ? constants.bind(table.machine) : ""
    let eventName = step.transitions[0].event
    var history: (event: String, cause: String)?
    if configuration.history { history = (constants.bind(eventName), constants.bind(StoredTransition.Cause.event.rawValue)) }
    // The binds of one fire follow the constants, typed as `statement(key:…)` binds them.
    let key = "$\(constants.bindCount + 1)::TEXT"
    let payload = "$\(constants.bindCount + 2)::TEXT"
    let at = clock.isDatabase ? "clock_timestamp()" : "$\(constants.bindCount + 3)::TIMESTAMPTZ"
    let row = table.isShared ? "machine = \(machine) AND entity_id = \(key)" : "\(table.quotedID) = CAST(\(key) AS \(idType))"
    // The expected version is bound after the key, the payload and the time, whichever are bound.
    let expected =
      "$\(constants.bindCount + 2 + (configuration.history ? 1 : 0) + (configuration.history && !clock.isDatabase ? 1 : 0))::BIGINT"
    func sql(_ shape: PostgresFastPlanShape) -> String {
      let version = shape.comparesVersion ? " AND sm_version = CAST(\(expected) AS bigint)" : ""
      var sql = """
        WITH moved AS (
          UPDATE \(table.quotedName) SET state = m.sm_to, sm_version = old.sm_old_version + 1, sm_history = NULL
            FROM (SELECT state AS sm_old_state, sm_version AS sm_old_version FROM \(table.quotedName)
                   WHERE \(row) AND NOT sm_terminated\(version)\(shape.noWait ? " FOR UPDATE NOWAIT" : "")) old
            JOIN (VALUES \(map.joined(separator: ", "))) m(sm_from, sm_to) ON m.sm_from = old.sm_old_state
           WHERE \(row) AND sm_version = old.sm_old_version
          RETURNING \(table.selectList(mapping.columns)), sm_old_state)
        """
      if let history {
        sql += """
          , history AS (
            INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, payload, at)
            SELECT \(machine), \(key), sm_version, \(history.event), sm_old_state, state, \(history.cause),
              CAST(\(payload) AS json), \(at) FROM moved)
          """
      }
      // `*`: the select list names the id twice (the column, then the key as text).
      return sql + "\nSELECT * FROM moved"
    }
    // The statement of the fires of a batch of `size` (padded with NULL keys, which match no
    // row): the fires as a VALUES list, each its key, the version its row must be at (P4: a row
    // elsewhere is left to the locked step, which reports the conflict), its payload and its
    // place, so that the
    // planner knows how many rows come and keeps one plan per size (an array of keys, of a
    // length it cannot see, made it plan every small batch anew). `old` locks the rows it can
    // and skips those another transaction holds: a batch never waits for a lock, so one held
    // row cannot hold up the fires of the others, and two batches cannot deadlock. A skipped
    // fire takes the locked step on its own; the rest is the single statement's, row by row.
    let rowColumn = table.isShared ? "entity_id" : table.quotedID
    let join =
      table.isShared
      ? "t.machine = \(machine) AND t.entity_id = i.sm_fire_key"
      : "t.\(table.quotedID) = CAST(i.sm_fire_key AS \(idType))"
    let bindsTime = configuration.history && !clock.isDatabase
    let batchAt = bindsTime ? "$\(constants.bindCount + 1)::TIMESTAMPTZ" : "clock_timestamp()"
    func batchSQL(_ size: Int) -> String {
      let first = constants.bindCount + (bindsTime ? 2 : 1)
      let perFire = configuration.history ? 3 : 2
      let fires = (0..<size).map { place in
        let key = "$\(first + place * perFire)::TEXT"
        let expected = "$\(first + place * perFire + 1)::BIGINT"
        let payload = configuration.history ? "$\(first + place * perFire + 2)::TEXT" : "CAST(NULL AS text)"
        return "(\(key), \(expected), \(payload), CAST(\(place + 1) AS bigint))"
      }
      var sql = """
        WITH old AS MATERIALIZED (
          SELECT t.\(rowColumn) AS sm_fire_row, t.state AS sm_old_state, t.sm_version AS sm_old_version,
                 i.sm_fire_key, i.sm_fire_payload, i.sm_fire_ord
            FROM (VALUES \(fires.joined(separator: ", "))) AS i(sm_fire_key, sm_fire_expected, sm_fire_payload, sm_fire_ord)
            JOIN \(table.quotedName) t ON \(join)
           WHERE NOT t.sm_terminated AND (i.sm_fire_expected IS NULL OR t.sm_version = i.sm_fire_expected)
           FOR UPDATE OF t SKIP LOCKED),
        moved AS (
          UPDATE \(table.quotedName) SET state = m.sm_to, sm_version = old.sm_old_version + 1, sm_history = NULL
            FROM old JOIN (VALUES \(map.joined(separator: ", "))) m(sm_from, sm_to) ON m.sm_from = old.sm_old_state
           WHERE \(table.isShared ? "machine = \(machine) AND " : "")\(rowColumn) = old.sm_fire_row
             AND sm_version = old.sm_old_version
          RETURNING \(table.selectList(mapping.columns)), sm_old_state, sm_fire_key, sm_fire_ord, sm_fire_payload)
        """
      if let history {
        sql += """
          , history AS (
            INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, payload, at)
            SELECT \(machine), sm_fire_key, sm_version, \(history.event), sm_old_state, state, \(history.cause),
              CAST(sm_fire_payload AS json), \(batchAt) FROM moved)
          """
      }
      return sql + "\nSELECT * FROM moved"
    }
    return PostgresFastPlan(
      event: eventName, targets: Dictionary(transitions.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first }),
      sql: Dictionary(uniqueKeysWithValues: PostgresFastPlanShape.allCases.map { ($0, sql($0)) }), constants: constants,
      history: configuration.history, bindsTime: bindsTime,
      batchSQL: batchesFires ? PostgresFastPlan.batchSizes.map(batchSQL) : [],
      batcher: batchesFires ? PostgresFastBatcher(maxBatch: PostgresFastPlan.batchSizes.last!) : nil)
  }
}

extension StoreClock {
  /// Whether this is the database's clock (P15).
  var isDatabase: Bool {
    if case .database = self { return true }
    return false
  }
}
#endif
