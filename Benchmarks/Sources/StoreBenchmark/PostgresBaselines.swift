// The hand-written baselines of the PostgreSQL store benchmark: what an application
// would write with postgres-nio alone, on the store's own table, the same statements as the
// script's pgbench files (Benchmarks/pgbench/cas.sql and locked.sql).

import PostgresNIO
import StateMachinesPostgres

/// What one task knows of its row: the version it last wrote (B0) or how many events it fired
/// (S3 alternates `start` and `stop`). Each task has its own, so nothing is shared.
final class PostgresTaskState: @unchecked Sendable {
  var version: Int64 = 0
  var fired = 0
}

/// B0: one compare-and-set UPDATE, no transaction around it (as pgbench's `cas.sql`). The task
/// knows its row's version from its previous write, so it reads nothing and writes no history.
func postgresCompareAndSet(_ client: PostgresClient, id: Int, _ known: PostgresTaskState) async throws {
  let rows = try await client.query(
    """
    UPDATE toggles SET state = CASE state WHEN 'off' THEN 'on' ELSE 'off' END, sm_version = sm_version + 1
     WHERE id = \(id) AND sm_version = \(known.version) RETURNING sm_version
    """, logger: PostgresStepLogger.logger
  ).collect()
  guard let row = rows.first else { throw PostgresBenchmarkFailure("B0: row \(id) is not at version \(known.version)") }
  known.version = try row.decode(Int64.self)
}

/// B1: the locked step by hand (as pgbench's `locked.sql`): `BEGIN; SELECT … FOR UPDATE; UPDATE
/// … WHERE sm_version = …; INSERT` the history row`; COMMIT`, five round trips.
func postgresLockedTransaction(_ client: PostgresClient, id: Int) async throws {
  let logger = PostgresStepLogger.logger
  try await client.withTransaction(logger: logger) { connection in
    let rows = try await connection.query("SELECT state, sm_version FROM toggles WHERE id = \(id) FOR UPDATE", logger: logger)
      .collect()
    guard let row = rows.first else { throw PostgresBenchmarkFailure("B1: no row \(id)") }
    let (from, version) = try row.decode((String, Int64).self)
    let to = from == "off" ? "on" : "off"
    let updated = try await connection.query(
      "UPDATE toggles SET state = \(to), sm_version = \(version + 1) WHERE id = \(id) AND sm_version = \(version) RETURNING sm_version",
      logger: logger
    ).collect()
    guard updated.count == 1 else { throw PostgresBenchmarkFailure("B1: row \(id) moved on") }
    try await connection.query(
      """
      INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause)
      VALUES ('toggles', \(String(id)), \(version + 1), 'turn', \(from), \(to), 'event')
      """, logger: logger)
  }
}

/// B0p: the least a correct store must send for one event, by hand at its best: `minimal.sql`'s
/// statement (the compare-and-set on the version the task holds plus P2's history row), prepared
/// once per connection by postgres-nio (`PostgresPreparedStatement`). What the fast path is worth
/// against the same work done by hand through the same client library; pgbench's run of the same
/// statement adds what the library costs.
func postgresMinimalPrepared(_ client: PostgresClient, id: Int, _ known: PostgresTaskState) async throws {
  var versions = try await client.execute(MinimalStatement(id: id, version: known.version), logger: PostgresStepLogger.logger)
    .makeAsyncIterator()
  guard let version = try await versions.next() else {
    throw PostgresBenchmarkFailure("B0p: row \(id) is not at version \(known.version)")
  }
  known.version = version
}

/// `pgbench/minimal.sql`'s statement, with the row's id and expected version as parameters.
struct MinimalStatement: PostgresPreparedStatement {
  static let sql = """
    WITH moved AS (
      UPDATE toggles SET state = CASE state WHEN 'off' THEN 'on' ELSE 'off' END, sm_version = sm_version + 1
       WHERE id = $1 AND sm_version = $2
      RETURNING sm_version, state)
    INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause)
    SELECT 'toggles', CAST($1 AS text), sm_version, 'turn', CASE state WHEN 'on' THEN 'off' ELSE 'on' END, state, 'event'
      FROM moved
    RETURNING version
    """
  typealias Row = Int64

  let id: Int
  let version: Int64

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 2)
    bindings.append(id)
    bindings.append(version)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// B4p: `minimal.sql`'s statement batched by hand: one statement carries the compare-and-set
/// and the history row of each of `ids` (a `VALUES` list of ids and the versions the task holds),
/// prepared once per connection and per list length through postgres-nio. The fast path batches
/// concurrent fires into one statement the same way; this is that batching written by hand, with
/// nothing else around it.
func postgresMinimalBatch(_ client: PostgresClient, ids: [Int], _ known: [PostgresTaskState]) async throws {
  let statement = MinimalBatchStatement(ids: ids, versions: known.map(\.version))
  let rows = try await MinimalBatchStatement.$size.withValue(ids.count) {
    var rows: [(Int, Int64)] = []
    for try await row in try await client.execute(statement, logger: PostgresStepLogger.logger) { rows.append(row) }
    return rows
  }
  guard rows.count == ids.count else { throw PostgresBenchmarkFailure("B4p: \(ids.count - rows.count) rows moved on") }
  for (id, version) in rows {
    guard let index = ids.firstIndex(of: id) else { throw PostgresBenchmarkFailure("B4p: row \(id) was not sent") }
    known[index].version = version
  }
}

/// ``postgresMinimalBatch(_:ids:_:)``'s statement for a list of ``size`` rows: postgres-nio wants
/// a prepared statement's name and SQL static, so they are read from a task-local list length.
struct MinimalBatchStatement: PostgresPreparedStatement {
  @TaskLocal static var size = 1

  static var name: String { "b4p_minimal_\(size)" }
  static var sql: String {
    let values = (0..<size).map { "($\(2 * $0 + 1)::bigint, $\(2 * $0 + 2)::bigint)" }.joined(separator: ", ")
    return """
      WITH input (id, v) AS (VALUES \(values)),
      moved AS (
        UPDATE toggles t SET state = CASE t.state WHEN 'off' THEN 'on' ELSE 'off' END, sm_version = t.sm_version + 1
          FROM input WHERE t.id = input.id AND t.sm_version = input.v
        RETURNING t.id, t.sm_version, t.state)
      INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause)
      SELECT 'toggles', CAST(id AS text), sm_version, 'turn', CASE state WHEN 'on' THEN 'off' ELSE 'on' END, state, 'event'
        FROM moved
      RETURNING CAST(entity_id AS bigint), version
      """
  }
  typealias Row = (Int, Int64)

  let ids: [Int]
  let versions: [Int64]

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 2 * ids.count)
    for (id, version) in zip(ids, versions) {
      bindings.append(id)
      bindings.append(version)
    }
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> (Int, Int64) { try row.decode((Int, Int64).self) }
}
