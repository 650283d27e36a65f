// The persisted classes of the store benchmark: GRDB records with `@StateMachine`, in tables an
// application would create (its own columns, then `stateMachineColumns()`).

import Foundation
import GRDB
import StateMachines
import StateMachinesSQLite

/// A machine whose one event always takes a transition: `flip` goes off → on → off. No deadline,
/// no callback, one microstep: the store's cost per step, nothing else (S1, S2, S4).
@StateMachine
final class Toggle: Codable, FetchableRecord, EncodableRecord, TableRecord, StoreManagedStateMachine,
  @unchecked Sendable
{
  static let databaseTableName = "toggles"
  var id: Int
  var storeID: Int { id }
  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<Toggle> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("flip", transitionFrom: "off", to: "on")
    sm.when("flip", transitionFrom: "on", to: "off")
  }
}

/// A machine with a durable timeout: `start` enters `waiting`, which arms a deadline row, and
/// `stop` leaves it, which deletes the row (S3, P8).
@StateMachine
final class Countdown: Codable, FetchableRecord, EncodableRecord, TableRecord, StoreManagedStateMachine,
  @unchecked Sendable
{
  static let databaseTableName = "countdowns"
  var id: Int
  var storeID: Int { id }
  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<Countdown> { sm in
    sm.addState("idle")
    sm.addState("waiting")
    sm.when("start", transitionFrom: "idle", to: "waiting")
    sm.when("stop", transitionFrom: "waiting", to: "idle")
    sm.when("expire", transitionFrom: "waiting", to: "idle", after: .seconds(3600))
  }
}

/// A database file of its own in a new temporary directory: a `DatabasePool` (WAL),
/// `synchronous = NORMAL`, the library's tables and the records' tables.
func makeDatabase() throws -> (pool: DatabasePool, path: String) {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-benchmark-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let path = directory.appendingPathComponent("bench.sqlite").path
  var configuration = Configuration()
  configuration.busyMode = .timeout(10)
  configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
  let pool = try DatabasePool(path: path, configuration: configuration)
  try pool.write { db in
    try StateMachineTables.create(in: db)
    try createUnindexedHistory(db)
    for table in [Toggle.databaseTableName, Countdown.databaseTableName] {
      try db.create(table: table) { t in
        t.column("id", .integer).primaryKey()
        t.stateMachineColumns()
      }
    }
  }
  return (pool, path)
}
