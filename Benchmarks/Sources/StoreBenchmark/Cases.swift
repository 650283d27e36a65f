// The rows of the SQLite store benchmark (Benchmarks/README.md): the baselines B0, B1 and the store
// S1–S4, each in a synchronous mode (GRDB's `write` with `fire(_:on:in:)` inside) and an
// asynchronous one (`await pool.write`, `await store.fire`). Every row works on rows of its own, so
// no row's history or version depends on another's.

import GRDB
import StateMachines
import StateMachinesSQLite

/// A row whose event did not take its transition.
struct StoreBenchmarkFailure: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}

/// Runs `count` events; a row's function throws when any event did not take its transition.
typealias Events = @Sendable (_ count: Int) async throws -> Void

/// One row of the table: the same work synchronously and asynchronously.
struct StoreCase: Sendable {
  let id: String
  let name: String
  /// Events are fired in multiples of this (S4's batch).
  let batch: Int
  let sync: Events
  let async: Events
  /// The number of rows whose `sm_version` counts this case's events.
  let rows: [Int]
  /// The table of this case's history rows.
  var history = "sm_transitions"
}

/// The benchmark's stores, all on one database.
struct Stores: Sendable {
  let pool: DatabasePool
  /// S1: history off.
  let plain: SQLiteStateMachineStore<Toggle>
  /// S2, S4: history on (the default).
  let audited: SQLiteStateMachineStore<Toggle>
  /// S3: history on, a durable deadline.
  let countdowns: SQLiteStateMachineStore<Countdown>

  init(_ pool: DatabasePool) {
    self.pool = pool
    var noHistory = StoreConfiguration<Toggle>()
    noHistory.history = false
    plain = SQLiteStateMachineStore(pool, configuration: noHistory)
    audited = SQLiteStateMachineStore(pool)
    countdowns = SQLiteStateMachineStore(pool)
  }
}

/// The rows, their database rows inserted (by the store, in their initial state at version 0).
func makeCases(_ stores: Stores) async throws -> [StoreCase] {
  let pool = stores.pool
  // Row ids: 1000 × case + 100 × mode + i, so that no two rows share a database row.
  func ids(_ base: Int, _ count: Int = 1) -> (sync: [Int], async: [Int]) {
    (Array(base * 1000..<base * 1000 + count), Array(base * 1000 + 100..<base * 1000 + 100 + count))
  }
  let b0 = ids(1), b1 = ids(2), s1 = ids(3), s2 = ids(4), s3 = ids(5), s4 = ids(6, 100), b1c = ids(7)
  let b4 = ids(8, 100), b1u = ids(9), b4u = ids(10, 100), s2g = ids(11)
  for id in [b0, b1, s1, s2, s4, b1c, b4, b1u, b4u, s2g].flatMap({ $0.sync + $0.async }) {
    try await stores.audited.insert(Toggle(id: id))
  }
  // G2: the object a business function holds, loaded once; each generated call leaves it at the
  // committed version, so it never conflicts.
  let toggle = try await stores.audited.load(s2g.async[0])!
  for id in s3.sync + s3.async { try await stores.countdowns.insert(Countdown(id: id)) }
  let known = (sync: KnownRow(), async: KnownRow())

  return [
    StoreCase(
      id: "B0", name: "by hand: compare-and-set UPDATE", batch: 1,
      sync: { count in
        for _ in 0..<count {
          try pool.write { db in try compareAndSet(db, id: b0.sync[0], from: known.sync.state, version: known.sync.version) }
          known.sync.advance()
        }
      },
      async: { count in
        for _ in 0..<count {
          let (state, version) = (known.async.state, known.async.version)
          try await pool.write { db in try compareAndSet(db, id: b0.async[0], from: state, version: version) }
          known.async.advance()
        }
      }, rows: b0.sync + b0.async),
    StoreCase(
      id: "B1", name: "by hand: select + compare-and-set + history row", batch: 1,
      sync: { count in for _ in 0..<count { try pool.write { db in try selectCompareAndSetHistory(db, id: b1.sync[0]) } } },
      async: { count in
        for _ in 0..<count { try await pool.write { db in try selectCompareAndSetHistory(db, id: b1.async[0]) } }
      }, rows: b1.sync + b1.async),
    byHand("B1c", "B1 with cached statements", pool, b1c),
    byHand("B4", "100 × B1c in one write", pool, b4),
    byHand("B1u", "B1c, history without P2's unique index", pool, b1u, history: unindexedHistory),
    byHand("B4u", "100 × B1u in one write", pool, b4u, history: unindexedHistory),
    fires("S1", "store fire, history off", pool, stores.plain, s1),
    fires("S2", "store fire, history on", pool, stores.audited, s2),
    StoreCase(
      id: "G2", name: "S2 through the generated API", batch: 1,
      sync: { count in for _ in 0..<count { try pool.write { db in _ = try stores.audited.fire(.flip, on: s2g.sync[0], in: db) } } },
      async: { count in
        for _ in 0..<count { guard try await toggle.flip() else { throw StoreBenchmarkFailure("flip refused") } }
      }, rows: s2g.sync + s2g.async),
    StoreCase(
      id: "S3", name: "store fire arming a deadline / deleting it", batch: 2,
      sync: { count in
        for i in 0..<count {
          try pool.write { db in _ = try stores.countdowns.fire(i % 2 == 0 ? "start" : "stop", on: s3.sync[0], in: db) }
        }
      },
      async: { count in
        for i in 0..<count { try await stores.countdowns.fire(i % 2 == 0 ? "start" : "stop", on: s3.async[0]) }
      }, rows: s3.sync + s3.async),
    StoreCase(
      id: "S4", name: "100 store fires in one write, history on", batch: 100,
      sync: { count in
        for _ in 0..<count / 100 { try pool.write { db in try storeFiresInWrite(db, stores.audited, s4.sync) } }
      },
      async: { count in
        for _ in 0..<count / 100 {
          try await pool.write { db in for id in s4.async { try stores.audited.fire("flip", on: id, in: db) } }
        }
      }, rows: s4.sync + s4.async),
  ]
}

/// B1c, B4, B1u, B4u: B1c's statements on each of `rows` (one row: one per transaction; 100: all in one).
private func byHand(
  _ id: String, _ name: String, _ pool: DatabasePool, _ rows: (sync: [Int], async: [Int]),
  history: String = "sm_transitions"
) -> StoreCase {
  StoreCase(
    id: id, name: name, batch: rows.sync.count,
    sync: { count in
      for _ in 0..<count / rows.sync.count { try pool.write { db in try handStepsInWrite(db, rows.sync, history: history) } }
    },
    async: { count in
      for _ in 0..<count / rows.async.count {
        try await pool.write { db in for id in rows.async { try selectCompareAndSetHistoryCached(db, id: id, history: history) } }
      }
    }, rows: rows.sync + rows.async, history: history)
}

/// S4's write: a store fire of `flip` on each of `ids`. Not inlined, so that
/// `Benchmarks/sqlite-instructions.sh` counts the instructions inside it alone (callgrind's
/// `--toggle-collect`): the fires, without the transaction's begin and commit.
@inline(never)
func storeFiresInWrite(_ db: Database, _ store: SQLiteStateMachineStore<Toggle>, _ ids: [Int]) throws {
  for id in ids { try store.fire("flip", on: id, in: db) }
}

/// B1c's and B4's write: B1c's statements on each of `ids`, not inlined, as ``storeFiresInWrite(_:_:_:)``.
@inline(never)
func handStepsInWrite(_ db: Database, _ ids: [Int], history: String) throws {
  for id in ids { try selectCompareAndSetHistoryCached(db, id: id, history: history) }
}

/// S1 and S2: one `flip` per transaction on one row.
private func fires(
  _ id: String, _ name: String, _ pool: DatabasePool, _ store: SQLiteStateMachineStore<Toggle>,
  _ rows: (sync: [Int], async: [Int])
) -> StoreCase {
  StoreCase(
    id: id, name: name, batch: 1,
    sync: { count in for _ in 0..<count { try pool.write { db in _ = try store.fire("flip", on: rows.sync[0], in: db) } } },
    async: { count in for _ in 0..<count { try await store.fire("flip", on: rows.async[0]) } },
    rows: rows.sync + rows.async)
}

extension KnownRow {
  /// The row after one more compare-and-set.
  func advance() {
    state = state == "off" ? "on" : "off"
    version += 1
  }
}
