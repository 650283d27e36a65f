// The SQLite store against hand-written GRDB transactions. See Benchmarks/README.md.
// `StoreBenchmark postgres …` runs the PostgreSQL store's benchmark instead.
//
//   swift run -c release --disable-experimental-prebuilts StoreBenchmark [events-per-row-and-round] [rounds]
//
// Every row runs once to warm up, then the rows run in rounds (forward, then backward, …), each
// row `events` events per round, timed in CPU time of the whole process (the work runs on the
// caller's thread, GRDB's writer and dispatch queues; a shared machine's load does not count) and
// on the wall clock. A row's speed is the median over the rounds; a ratio is the median over the
// rounds of the two rows' speeds in the same round, so the drift of a shared machine cancels.

import Foundation
import GRDB
import StateMachinesSQLite

// The process's main thread only waits: valgrind (3.19) cannot run a Swift program whose main
// thread runs the concurrency runtime's main queue (an async top level), and
// Benchmarks/sqlite-instructions.sh runs this one under callgrind.
let finished = DispatchSemaphore(value: 0)
Task.detached {
  do {
    // `StoreBenchmark postgres [options]`: the PostgreSQL store instead (PostgresMain.swift).
    if CommandLine.arguments.dropFirst().first == "postgres" {
      try await runPostgresBenchmark(Array(CommandLine.arguments.dropFirst(2)))
    } else {
      try await runSQLiteBenchmark(Array(CommandLine.arguments.dropFirst()))
    }
  } catch {
    FileHandle.standardError.write(Data("StoreBenchmark: \(error)\n".utf8))
    exit(1)
  }
  finished.signal()
}
finished.wait()

/// The SQLite rows: `events` per row and round, `rounds` rounds, or `--only` some of them.
func runSQLiteBenchmark(_ arguments: [String]) async throws {
  let numbers = arguments.compactMap { Int($0) }
  /// `--only B1,S2-sync`: those rows (both modes, or one), for a profiler; no table then.
  let only = arguments.firstIndex(of: "--only").map { Set(arguments[$0 + 1].split(separator: ",").map(String.init)) }
  let events = max(100, (numbers.first ?? 2_000) / 100 * 100)
  let rounds = max(1, numbers.dropFirst().first ?? 5)

  let (pool, path) = try makeDatabase()
  let settings = try await pool.read { db in
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
    .filter { run in only.map { $0.contains(String(run.key.split(separator: " ")[0])) || $0.contains(run.key.replacing(" ", with: "-")) } ?? true }

  let warmUp = 200
  for (_, run) in runs { _ = try await speed(run, warmUp) }
  var speeds: [String: [Speed]] = [:]
  for round in 0..<rounds {
    for (key, run) in round % 2 == 0 ? runs : runs.reversed() {
      speeds[key, default: []].append(try await speed(run, events))
    }
  }

  if only != nil {
    for (key, values) in speeds.sorted(by: { $0.key < $1.key }) {
      print(key, thousands(median(values.map(\.cpu))), "events per CPU second,", thousands(median(values.map(\.wall))), "on the clock")
    }
  } else {
    try await check(stores, cases, fired: warmUp + rounds * events)
    report(cases, speeds)
  }
  try pool.close()
  try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
}

/// The CPU time of the whole process so far (every thread: the caller, GRDB's writer, the
/// queues), in seconds.
func processCPU() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `count` events of one row and returns its events per second of process CPU time and of
/// wall-clock time.
func speed(_ run: Events, _ count: Int) async throws -> Speed {
  let clock = ContinuousClock()
  let (start, startCPU) = (clock.now, processCPU())
  try await run(count)
  let elapsed = (clock.now - start).components
  let wall = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
  return Speed(cpu: Double(count) / (processCPU() - startCPU), wall: Double(count) / wall)
}

/// The tables and the goals.
func report(_ cases: [StoreCase], _ speeds: [String: [Speed]]) {
  print()
  print("Events per second of process CPU time (every thread), the measure of the README:")
  printTable(cases, speeds, \.cpu)
  print()
  print("Events per second on the wall clock (on a loaded machine this favours the async rows, whose")
  print("thread wake-ups get scheduled sooner):")
  printTable(cases, speeds, \.wall)
  print()
  for measure in [(name: "CPU", path: \Speed.cpu), (name: "clock", path: \Speed.wall)] {
    let m = measure.path
    goal("S2 sync >= 0.8 x B1 sync (\(measure.name))", ratio("S2 sync", "B1 sync", speeds, m), 0.8)
    goal("S2 async >= 0.8 x B1 async (\(measure.name))", ratio("S2 async", "B1 async", speeds, m), 0.8)
    goal("G2 sync >= 0.97 x S2 sync (\(measure.name))", ratio("G2 sync", "S2 sync", speeds, m), 0.97)
    goal("G2 async >= 0.97 x S2 async (\(measure.name))", ratio("G2 async", "S2 async", speeds, m), 0.97)
    // The locked step against the same three statements by hand, one per transaction.
    goal("S2 sync >= 0.9 x B1c sync (\(measure.name))", ratio("S2 sync", "B1c sync", speeds, m), 0.9)
    goal("S2 async >= 0.9 x B1c async (\(measure.name))", ratio("S2 async", "B1c async", speeds, m), 0.9)
  }
  // Batching, what the store's 100 fires in one write gain over one fire as a share of what B1c's
  // statements gain in B4, is judged by instructions per fire inside the write
  // (Benchmarks/sqlite-instructions.sh): its CPU time is too noisy for a goal. It stays here as information.
  print()
  for mode in ["sync", "async"] {
    let store = ratio("S4 \(mode)", "S2 \(mode)", speeds, \.cpu)
    let byHand = ratio("B4 \(mode)", "B1c \(mode)", speeds, \.cpu)
    print(String(format: "S4 %@ / S2 %@ ÷ B4 %@ / B1c %@ (CPU): %.2f", mode, mode, mode, mode, store / byHand))
  }
  print()
  print("What batching gives by hand (B1c's statements, no store), with and without P2's unique index:")
  for mode in ["sync", "async"] {
    for (batch, single) in [("B4", "B1c"), ("B4u", "B1u")] {
      print(String(format: "%@ %@ / %@ %@ (CPU): %.2f", batch, mode, single, mode, ratio("\(batch) \(mode)", "\(single) \(mode)", speeds, \.cpu)))
    }
  }
}
