// The fast path of PERSISTENCE.md §6: a fire by id whose step runs no code needs no object, so
// one statement replaces the lock, the update and the history insert: `UPDATE … FROM (SELECT …
// FOR UPDATE) old` maps the locked row's state through the event's pure transitions, and its
// `RETURNING` feeds the history `INSERT` and gives the result's row.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

extension PostgresStepEngine {
  /// Fires `event` on the row with `key` in one statement when the row's state takes a pure step
  /// (``StateMachineDefinition/pureStoreTransitions(_:configuration:)``); `nil`, with nothing
  /// written, when it does not (no such row, terminated, a state whose step needs the object or
  /// rejects the event): the caller then takes the normal path, whose `SELECT … FOR UPDATE`
  /// finds the row this statement may have locked.
  ///
  /// Same rows as the normal path: the machine columns at version + 1 (P4: the lock and the
  /// version of the locked row; the own columns are untouched, no code ran), one history row
  /// (P2); no deadline row (P8: a pure step leaves and enters no timed state), no outbox message
  /// (P16). Only without a request id: a recorded one must be replayed after the lock (P6).
  func fastFire(
    _ connection: PostgresConnection, _ event: String, key: String, payload: (any Encodable & Sendable)?, noWait: Bool
  ) async throws(StateMachineStoreError) -> Written? {
    let transitions = definition.pureStoreTransitions(event, configuration: configuration)
    guard let anyStep = transitions.first.flatMap({ pure in
      definition.pureStoreStep(
        event, payload: payload, from: StoredMachineState(state: pure.from), configuration: configuration)
    }) else { return nil }
    let transitionEvent = anyStep.transitions[0].event
    let idType = try await idType(connection)
    var statement = PostgresStatement()
    let locked = table.row(key, idType: idType, &statement)
    let map = transitions.map { "(CAST(\(statement.bind($0.from)) AS text), CAST(\(statement.bind($0.to)) AS text))" }
    let target = table.row(key, idType: idType, &statement)
    let returned = table.selectList(mapping.columns) + ", sm_old_state"
    statement.sql = """
      WITH moved AS (
        UPDATE \(table.quotedName) SET state = m.sm_to, sm_version = old.sm_old_version + 1, sm_history = NULL
          FROM (SELECT state AS sm_old_state, sm_version AS sm_old_version FROM \(table.quotedName)
                 WHERE \(locked) AND NOT sm_terminated FOR UPDATE\(noWait ? " NOWAIT" : "")) old
          JOIN (VALUES \(map.joined(separator: ", "))) m(sm_from, sm_to) ON m.sm_from = old.sm_old_state
         WHERE \(target) AND sm_version = old.sm_old_version
        RETURNING \(returned))
      """
    if configuration.history {
      let at: String
      if case .database = clock { at = "clock_timestamp()" } else { at = statement.bind(clock.now) }
      let encoded = try PostgresStoreFailure.sync(key) {
        try payload.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
      }
      statement.sql += """
        , history AS (
          INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, payload,
            request_id, due_at, at)
          SELECT \(statement.bind(table.machine)), \(statement.bind(key)), sm_version, \(statement.bind(transitionEvent)),
            sm_old_state, state, \(statement.bind(StoredTransition.Cause.event.rawValue)),
            CAST(\(statement.bind(encoded)) AS json), NULL, NULL, \(at) FROM moved)
        """
    }
    // `*`: the select list names the id twice (the column, then the key as text).
    statement.sql += "\nSELECT * FROM moved"
    guard let row = try await run(connection, statement, key: key).first else { return nil }
    // One statement took the lock and wrote: both points are passed at once, nothing committed.
    crashPoint(.afterLock)
    crashPoint(.afterWrite)
    let offset = mapping.columns.count
    let (before, model) = try PostgresStoreFailure.sync(key) {
      (try row.makeRandomAccess()[offset + 5].decode(String.self), try mapping.decode(row))
    }
    let after = try machineState(row, key)
    guard
      let step = definition.pureStoreStep(
        event, payload: payload, from: StoredMachineState(state: before, version: after.version - 1),
        configuration: configuration)
    else { throw .database(PostgresStoreFailure("the fast path wrote a step the definition does not take")) }
    try definition.load(step.after, into: model, id: key)
    let fired = Fired(
      model: model, from: step.before.state, to: step.after.state, version: step.after.version,
      transitions: step.transitions)
    return Written(step: step, fired: fired)
  }
}
#endif
