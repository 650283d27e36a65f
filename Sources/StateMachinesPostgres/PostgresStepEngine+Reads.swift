// Reads of committed rows (P14): loading an object, scopes, a row's history and deadlines, and
// `verify()` (P12). None of them takes a lock.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

extension PostgresStepEngine {
  /// Runs `body` on a pooled connection, outside any transaction; again when the pool handed out
  /// a connection the server had already closed, or when a statement prepared on the connection
  /// was gone (the server ran nothing of it; reads repeat safely).
  func read<T: Sendable>(_ key: String, _ body: (PostgresConnection) async throws(StateMachineStoreError) -> T)
    async throws(StateMachineStoreError) -> T
  {
    var attempt = 0
    while true {
      do {
        return try await readOnce(key, body)
      } catch {
        let again = PostgresStoreFailure.isClosedConnection(error) || PostgresStoreFailure.isStalePreparedStatement(error)
        guard again, attempt < Self.deadlockRetries else { throw error }
        attempt += 1
      }
    }
  }

  private func readOnce<T: Sendable>(_ key: String, _ body: (PostgresConnection) async throws(StateMachineStoreError) -> T)
    async throws(StateMachineStoreError) -> T
  {
    let result: Result<T, StateMachineStoreError>
    do {
      result = try await client.withConnection { connection in
        do throws(StateMachineStoreError) {
          return .success(try await body(connection))
        } catch {
          return .failure(error)
        }
      }
    } catch {
      throw PostgresStoreFailure.map(error, key: key)
    }
    return try result.get()
  }

  /// A fresh object from the committed row with `key`, or `nil`.
  func load(_ key: String) async throws(StateMachineStoreError) -> Model? {
    try await read(key) { connection throws(StateMachineStoreError) -> _StoreHandOff<Model?> in
      var statement = PostgresStatement()
      let filter = table.row(key, idType: try await idType(connection), &statement)
      statement.sql = "SELECT \(table.selectList(mapping.columns)) FROM \(table.quotedName) WHERE \(filter)"
      guard let row = try await run(connection, statement, key: key).first else { return _StoreHandOff(nil) }
      return _StoreHandOff(try fresh(row, key))
    }.value
  }

  /// The committed machine columns of the row with `key`.
  func storedState(_ key: String) async throws(StateMachineStoreError) -> StoredMachineState? {
    try await read(key) { connection throws(StateMachineStoreError) in try await current(connection, key) }
  }

  /// The condition that selects the rows in `state` (P14), as ``PostgresStateScope`` builds it;
  /// `nil` when `state` is not in the definition.
  private func scope(_ state: String, _ statement: inout PostgresStatement) -> String? {
    guard definition.storedName(of: state) != nil else { return nil }
    return PostgresStateScope(state: state, definition: definition, table: table, alias: nil).sql(&statement)
  }

  func ids(in state: String, after: String?, limit: Int) async throws(StateMachineStoreError) -> [String] {
    try await read("") { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      guard let scope = scope(state, &statement) else { return [] }
      let idType = try await idType(connection)
      var sql = "SELECT \(table.keyExpression) FROM \(table.quotedName) WHERE \(scope)"
      if let after { sql += " AND \(table.quotedID) > CAST(\(statement.bind(after)) AS \(idType))" }
      sql += " ORDER BY \(table.quotedID) LIMIT \(statement.bind(max(0, limit)))"
      statement.sql = sql
      let rows = try await run(connection, statement, key: "")
      return try PostgresStoreFailure.sync("") { try rows.map { try $0.decode(String.self) } }
    }
  }

  func count(in state: String) async throws(StateMachineStoreError) -> Int {
    try await read("") { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      guard let scope = scope(state, &statement) else { return 0 }
      statement.sql = "SELECT COUNT(*) FROM \(table.quotedName) WHERE \(scope)"
      let rows = try await run(connection, statement, key: "")
      return try PostgresStoreFailure.sync("") { try rows.first?.decode(Int.self) ?? 0 }
    }
  }

  func history(of key: String) async throws(StateMachineStoreError) -> [StoredTransition] {
    try await read(key) { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      statement.sql = """
        SELECT entity_id, version, event, from_state, to_state, cause, payload::text, request_id, due_at, at
          FROM sm_transitions WHERE machine = \(statement.bind(table.machine)) AND entity_id = \(statement.bind(key))
         ORDER BY version
        """
      let rows = try await run(connection, statement, key: key)
      return try PostgresStoreFailure.sync(key) {
        try rows.map { row in
          let (entity, version, event, from, to, cause, payload, requestID, dueAt, at) = try row.decode(
            (String, Int64, String, String, String, String, String?, UUID?, Date?, Date).self)
          return StoredTransition(
            entityID: entity, version: version, event: event, from: from, to: to,
            cause: StoredTransition.Cause(rawValue: cause) ?? .event, payload: payload.map { Data($0.utf8) },
            requestID: requestID, dueAt: dueAt, at: at)
        }
      }
    }
  }

  /// The columns of ``deadline(_:)``.
  static var deadlineColumns: String {
    "id, entity_id, state, event, armed_version, due_at, attempts, last_error, parked"
  }

  static func deadline(_ row: PostgresRow) throws -> StoredDeadline {
    let (id, entity, state, event, version, due, attempts, lastError, parked) = try row.decode(
      (Int64, String, String?, String, Int64, Date, Int, String?, Bool).self)
    return StoredDeadline(
      id: id, entityID: entity, state: state, event: event, armedVersion: version, dueAt: due, attempts: attempts,
      lastError: lastError, isParked: parked)
  }

  func deadlines(of key: String?) async throws(StateMachineStoreError) -> [StoredDeadline] {
    try await read(key ?? "") { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      var sql = "SELECT \(Self.deadlineColumns) FROM sm_deadlines WHERE machine = \(statement.bind(table.machine))"
      if let key { sql += " AND entity_id = \(statement.bind(key))" }
      statement.sql = sql + " ORDER BY due_at, id"
      let rows = try await run(connection, statement, key: key ?? "")
      return try PostgresStoreFailure.sync(key ?? "") { try rows.map(Self.deadline) }
    }
  }

  /// The messages not delivered yet, parked ones included.
  func pendingMessages() async throws(StateMachineStoreError) -> [(message: OutboxMessage, isParked: Bool)] {
    try await read("") { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      statement.sql = """
        SELECT id, entity_id, version, topic, payload::text, attempts, parked FROM sm_outbox
         WHERE machine = \(statement.bind(table.machine)) ORDER BY id
        """
      let rows = try await run(connection, statement, key: "")
      return try PostgresStoreFailure.sync("") {
        try rows.map { row in (try Self.message(row), try row.makeRandomAccess()[6].decode(Bool.self)) }
      }
    }
  }

  /// What is inconsistent with the definition (P12), from one snapshot (REPEATABLE READ).
  func verify() async throws(StateMachineStoreError) -> StoreReport {
    let parts = try await transaction(key: "") {
      connection throws(StateMachineStoreError) -> ([PostgresRow], [PostgresRow], [PostgresRow]) in
      try await run(connection, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", key: "")
      var rows = PostgresStatement()
      rows.sql = "SELECT \(table.keyExpression), state, sm_terminated FROM \(table.quotedName) WHERE \(table.allRows(&rows))"
      var deadlines = PostgresStatement()
      deadlines.sql =
        "SELECT \(Self.deadlineColumns) FROM sm_deadlines WHERE machine = \(deadlines.bind(table.machine)) ORDER BY id"
      var parked = PostgresStatement()
      parked.sql = """
        SELECT id, entity_id, version, topic, payload::text, attempts FROM sm_outbox
         WHERE machine = \(parked.bind(table.machine)) AND parked ORDER BY id
        """
      return (
        try await run(connection, rows, key: ""), try await run(connection, deadlines, key: ""),
        try await run(connection, parked, key: "")
      )
    }
    return try PostgresStoreFailure.sync("") {
      definition.report(
        rows: try parts.0.map { row in
          let (key, state, terminated) = try row.decode((String, String, Bool).self)
          return (key: key, state: state, isTerminated: terminated)
        },
        deadlines: try parts.1.map(Self.deadline), parkedMessages: try parts.2.map(Self.message))
    }
  }

  /// Every row's id, in order.
  func allIDs() async throws(StateMachineStoreError) -> [String] {
    try await read("") { connection throws(StateMachineStoreError) in
      var statement = PostgresStatement()
      statement.sql =
        "SELECT \(table.keyExpression) FROM \(table.quotedName) WHERE \(table.allRows(&statement)) ORDER BY \(table.quotedID)"
      let rows = try await run(connection, statement, key: "")
      return try PostgresStoreFailure.sync("") { try rows.map { try $0.decode(String.self) } }
    }
  }
}
#endif
