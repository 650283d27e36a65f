// The SQLite store against hand-written GRDB transactions (issue 19 §6). See Benchmarks/README.md.
//
//   swift run -c release --disable-experimental-prebuilts StoreBenchmark [events-per-row-and-round] [rounds]
//
// Every row runs once to warm up, then the rows run in rounds (forward, then backward, …), each
// row `events` events per round, timed on the wall clock (the work is mostly SQLite's, on GRDB's
// writer thread). A row's speed is the median over the rounds; a ratio is the median over the
// rounds of the two rows' speeds in the same round, so the drift of a shared machine cancels.

import Foundation
import GRDB
import StateMachinesSQLite

let numbers = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let events = max(100, (numbers.first ?? 2_000) / 100 * 100)
let rounds = max(1, numbers.dropFirst().first ?? 5)

let (pool, path) = try makeDatabase()
let settings = try pool.read { db in
  (
    try String.fetchOne(db, sql: "SELECT sqlite_version()")!, try String.fetchOne(db, sql: "PRAGMA journal_mode")!,
    try Int.fetchOne(db, sql: "PRAGMA synchronous")!
  )
}
print("StoreBenchmark: \(rounds) rounds x \(events) events per row and mode, \(Date())")
print("SQLite \(settings.0), journal_mode \(settings.1), synchronous \(settings.2) (1 = NORMAL),", terminator: " ")
print("\(ProcessInfo.processInfo.activeProcessorCount) cores, \(path)")

let stores = Stores(pool)
let cases = try await makeCases(stores)
let runs = cases.flatMap { c in [(key: "\(c.id) sync", run: c.sync), (key: "\(c.id) async", run: c.async)] }

/// Runs `count` events of one row and returns its events per second.
func speed(_ run: Events, _ count: Int) async throws -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  try await run(count)
  let elapsed = (clock.now - start).components
  return Double(count) / (Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
}

let warmUp = 200
for (_, run) in runs { _ = try await speed(run, warmUp) }
var speeds: [String: [Double]] = [:]
for round in 0..<rounds {
  for (key, run) in round % 2 == 0 ? runs : runs.reversed() {
    speeds[key, default: []].append(try await speed(run, events))
  }
}

try await check(stores, cases, fired: warmUp + rounds * events)
print()
printTable(cases, speeds)
print()
goal("S2 sync >= 0.8 x B1 sync", ratio("S2 sync", "B1 sync", speeds), 0.8)
goal("S2 async >= 0.8 x B1 async", ratio("S2 async", "B1 async", speeds), 0.8)
goal("S4 sync >= 5 x S2 sync", ratio("S4 sync", "S2 sync", speeds), 5)
goal("S4 async >= 5 x S2 async", ratio("S4 async", "S2 async", speeds), 5)
try pool.close()
try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
