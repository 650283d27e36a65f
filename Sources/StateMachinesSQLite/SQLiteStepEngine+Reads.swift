// Reads of committed rows (P14): loading an object, scopes, a row's history and deadlines, and
// `verify()` (P12). None of them takes the write lock.

#if SQLite
import Foundation
import GRDB
import StateMachines

extension SQLiteStepEngine {
  func read<T: Sendable>(_ key: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StateMachineStoreError) -> T {
    do {
      return try await writer.read(body)
    } catch {
      throw SQLiteStoreFailure.map(error, key: key)
    }
  }

  /// A fresh object from the committed row with `key`, or `nil`.
  func load(_ key: String) async throws(StateMachineStoreError) -> Model? {
    let filter = table.row(key)
    let sql = "SELECT * FROM \(table.quotedName) WHERE \(filter.sql)"
    return try await read(key) { db in
      _StoreHandOff(try Row.fetchOne(db, sql: sql, arguments: filter.arguments).map { row in try self.fresh(row, key) })
    }.value
  }

  /// The committed machine columns of the row with `key`.
  func storedState(_ key: String) async throws(StateMachineStoreError) -> StoredMachineState? {
    let filter = table.row(key)
    let sql = "SELECT state, sm_version, sm_terminated, sm_history FROM \(table.quotedName) WHERE \(filter.sql)"
    let table = self.table
    return try await read(key) { db in
      try Row.fetchOne(db, sql: sql, arguments: filter.arguments).map { try table.machineState($0) }
    }
  }

  /// The condition that selects the rows in `state` (P14): the state's name in a flat machine; in
  /// a statechart, rows whose configuration contains the state's path or a descendant's. `nil`
  /// when `state` is not in the definition.
  private func scope(_ state: String) -> (sql: String, arguments: StatementArguments)? {
    guard let name = definition.storedName(of: state) else { return nil }
    let all = table.allRows
    if definition.storesOneName { return ("\(all.sql) AND state = ?", all.arguments + [name]) }
    // A configuration is leaf paths joined by ","; a state is in it when its path is one of them or
    // a prefix of one, up to a "/". The range comparison uses the index for the first leaf.
    return (
      """
      \(all.sql) AND (state = ? OR (state >= ? AND state < ?) OR instr(',' || state || ',', ?) > 0
        OR instr(',' || state, ?) > 0)
      """,
      all.arguments + [name, name + "/", name + "0", "," + name + ",", "," + name + "/"]
    )
  }

  func ids(in state: String, after: String?, limit: Int) async throws(StateMachineStoreError) -> [String] {
    guard let scope = scope(state) else { return [] }
    var sql = "SELECT CAST(\(table.quotedID) AS TEXT) FROM \(table.quotedName) WHERE \(scope.sql)"
    var arguments = scope.arguments
    if let after {
      sql += " AND \(table.quotedID) > ?"
      arguments += [after]
    }
    sql += " ORDER BY \(table.quotedID) LIMIT ?"
    arguments += [max(0, limit)]
    let query = sql
    let values = arguments
    return try await read("") { db in try String.fetchAll(db, sql: query, arguments: values) }
  }

  func count(in state: String) async throws(StateMachineStoreError) -> Int {
    guard let scope = scope(state) else { return 0 }
    let sql = "SELECT COUNT(*) FROM \(table.quotedName) WHERE \(scope.sql)"
    return try await read("") { db in try Int.fetchOne(db, sql: sql, arguments: scope.arguments) ?? 0 }
  }

  func history(of key: String) async throws(StateMachineStoreError) -> [StoredTransition] {
    let machine = table.machine
    return try await read(key) { db in
      try Row.fetchAll(
        db,
        sql: "SELECT * FROM sm_transitions WHERE machine = ? AND entity_id = ? ORDER BY version",
        arguments: [machine, key]
      ).map { row in
        StoredTransition(
          entityID: row["entity_id"], version: row["version"], event: row["event"], from: row["from_state"],
          to: row["to_state"], cause: StoredTransition.Cause(rawValue: row["cause"]) ?? .event,
          payload: (row["payload"] as String?).map { Data($0.utf8) },
          requestID: (row["request_id"] as String?).flatMap(UUID.init(uuidString:)),
          dueAt: (row["due_at"] as Int64?).map(Date.init(storeMilliseconds:)), at: Date(storeMilliseconds: row["at"]))
      }
    }
  }

  func deadlines(of key: String?) async throws(StateMachineStoreError) -> [StoredDeadline] {
    let machine = table.machine
    return try await read(key ?? "") { db in
      var sql = "SELECT * FROM sm_deadlines WHERE machine = ?"
      var arguments: StatementArguments = [machine]
      if let key {
        sql += " AND entity_id = ?"
        arguments += [key]
      }
      return try Row.fetchAll(db, sql: sql + " ORDER BY due_at, id", arguments: arguments).map(Self.deadline)
    }
  }

  static func deadline(_ row: Row) -> StoredDeadline {
    StoredDeadline(
      id: row["id"], entityID: row["entity_id"], state: row["state"], event: row["event"],
      armedVersion: row["armed_version"], dueAt: Date(storeMilliseconds: row["due_at"]), attempts: row["attempts"],
      lastError: row["last_error"], isParked: row["parked"])
  }

  static func message(_ row: Row) -> OutboxMessage {
    OutboxMessage(
      id: row["id"], entityID: row["entity_id"], version: row["version"], topic: row["topic"],
      payload: Data((row["payload"] as String).utf8), attempts: row["attempts"])
  }

  /// The messages not delivered yet, parked ones included.
  func pendingMessages() async throws(StateMachineStoreError) -> [(message: OutboxMessage, isParked: Bool)] {
    let machine = table.machine
    return try await read("") { db in
      try Row.fetchAll(db, sql: "SELECT * FROM sm_outbox WHERE machine = ? ORDER BY id", arguments: [machine]).map {
        row in
        (Self.message(row), row["parked"] as Bool)
      }
    }
  }

  /// Parked deadlines and messages, and the oldest due deadline (P11, P16), from one read.
  func schedulerBacklog() async throws(StateMachineStoreError) -> StoreBacklog {
    let machine = table.machine
    let now = clock.now
    let milliseconds = now.storeMilliseconds
    return try await read("") { db in
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT (SELECT COUNT(*) FROM sm_deadlines WHERE machine = ?1 AND parked = 1) AS deadlines,
            (SELECT COUNT(*) FROM sm_outbox WHERE machine = ?1 AND parked = 1) AS messages,
            (SELECT MIN(due_at) FROM sm_deadlines WHERE machine = ?1 AND parked = 0 AND due_at <= ?2) AS oldest
          """,
        arguments: [machine, milliseconds])!
      let oldest = (row["oldest"] as Int64?).map { Date(timeIntervalSince1970: Double($0) / 1000) }
      return StoreBacklog(
        parkedDeadlines: row["deadlines"], parkedMessages: row["messages"],
        oldestDueDeadlineAge: StoreBacklog.age(dueAt: oldest, now: now))
    }
  }

  /// What is inconsistent with the definition (P12), from one read snapshot.
  func verify() async throws(StateMachineStoreError) -> StoreReport {
    let all = table.allRows
    let sql =
      "SELECT CAST(\(table.quotedID) AS TEXT) AS entity, state, sm_terminated FROM \(table.quotedName) WHERE \(all.sql)"
    let machine = table.machine
    let definition = self.definition
    return try await read("") { db in
      let rows = try Row.fetchAll(db, sql: sql, arguments: all.arguments)
      let deadlines = try Row.fetchAll(
        db, sql: "SELECT * FROM sm_deadlines WHERE machine = ? ORDER BY id", arguments: [machine])
      let parked = try Row.fetchAll(
        db, sql: "SELECT * FROM sm_outbox WHERE machine = ? AND parked = 1 ORDER BY id", arguments: [machine])
      return definition.report(
        rows: rows.map { (key: $0["entity"], state: $0["state"], isTerminated: $0["sm_terminated"]) },
        deadlines: deadlines.map(Self.deadline), parkedMessages: parked.map(Self.message))
    }
  }
}
#endif

#if SQLite
extension SQLiteStepEngine {
  /// Every row's id, in order.
  func allIDs() async throws(StateMachineStoreError) -> [String] {
    let all = table.allRows
    let sql = "SELECT CAST(\(table.quotedID) AS TEXT) FROM \(table.quotedName) WHERE \(all.sql) ORDER BY \(table.quotedID)"
    return try await read("") { db in try String.fetchAll(db, sql: sql, arguments: all.arguments) }
  }
}
#endif
