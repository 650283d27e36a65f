// The worker's modes on the ring machine (Persistence §9): setup, the race (bounded, or until
// a time for the soak), the kill at a crash point, a step held open at a crash point, a single
// fire, and outbox delivery into a ledger.

#if SQLite || PostgreSQL
import Foundation
import StateMachines

/// `setup --db D --rows N [--disabled K] [--dials M]`: the tables, rings 1…N in s0 and dials 1…M
/// in d0; the last K rings have `enabled = false`, so their guards refuse every `advance`.
func setupRings(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let database = try openDatabase(arguments)
  try await database.createTables()
  let rows = try arguments.int("rows")
  let disabled = try arguments.int("disabled", default: 0)
  let store = try database.rings(arguments).store
  for id in stride(from: 1, through: rows, by: 1) {
    try await store.insert(Ring(id: id, enabled: id <= rows - disabled))
  }
  let dials = database.dials().store
  for id in stride(from: 1, through: try arguments.int("dials", default: 0), by: 1) {
    try await dials.insert(Dial(id: id))
  }
  return ["inserted": rows]
}

/// `race --db D --rows N --events E --mode id|stale --seed S [--start-at MS] [--until MS --tally F]`:
/// E random events (`advance`, or `reset` one time in four) on random rings, or as many as fit
/// before the wall-clock time `--until`. `id` fires by id (P3); `stale` keeps an object per ring
/// and fires on it, so that it is stale whenever another process wrote the row since, with
/// `retry: .reload(max: 3)` (P4). Counts successes, rejections and conflicts (retries exhausted),
/// and the stale fires that were reloaded; anything else is an error. With `--tally` each success
/// appends a line to that file, so that a worker killed later still leaves its count (the soak).
func race(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let store = try openDatabase(arguments).rings(arguments).store
  let rows = try arguments.int("rows")
  let until = Double(arguments.optional("until") ?? "")
  let events = try arguments.int("events", default: until == nil ? nil : Int.max)
  let stale = try arguments.string("mode") == "stale"
  let tally = try arguments.optional("tally").map(Ledger.init)
  var random = SeededGenerator(seed: UInt64(try arguments.int("seed")))
  var held: [Int: Ring] = [:]
  var successes = 0
  var rejections = 0
  var conflicts = 0
  var reloaded = 0
  var errors: [String] = []
  // The stale worker loads its objects before the start, so that the others' writes make them
  // stale however the processes overlap.
  if stale {
    for id in 1...rows { held[id] = try await store.load(id) }
  }
  try await waitForStart(arguments)
  var attempted = 0
  while attempted < events, until.map({ Date().timeIntervalSince1970 * 1000 < $0 }) ?? true {
    attempted += 1
    let id = Int.random(in: 1...rows, using: &random)
    let event = Int.random(in: 0..<4, using: &random) == 0 ? "reset" : "advance"
    var succeeded = false
    do throws(StateMachineStoreError) {
      if stale {
        var object = held[id]
        if object == nil { object = try await store.load(id) }
        guard let object else { throw .notFound(id: "\(id)") }
        let fired = try await store.fire(event, on: object, options: FireOptions(retry: .reload(max: 3)))
        // One microstep per fire: a version further on means the object was stale and the
        // store reloaded the row (P4).
        if fired.version > Ring.stateMachine.storedState(of: object).version + 1 { reloaded += 1 }
        held[id] = fired.model
      } else {
        try await store.fire(event, on: id)
      }
      succeeded = true
    } catch {
      switch error {
      case .rejected: rejections += 1
      case .conflict: conflicts += 1
      default: errors.append("\(error)")
      }
    }
    if succeeded {
      successes += 1
      try tally?.append("\(id)")
    }
  }
  return [
    "successes": successes, "rejections": rejections, "conflicts": conflicts, "reloaded": reloaded, "errors": errors,
  ]
}

/// `crash --db D --id X --at afterLock|afterWrite|beforeCommit|afterCommit [--marker DIR]`:
/// fires `advance` on ring X and kills the process with SIGKILL at that point of the transaction
/// (Persistence §9). Prints a summary only if the point was never reached.
func crash(_ arguments: WorkerArguments) async throws -> [String: Any] {
  AfterMarker.shared.use(arguments.optional("marker"))
  let rings = try openDatabase(arguments).rings(arguments)
  try rings.onCrashPoint(try arguments.string("at")) { kill(getpid(), SIGKILL) }
  let fired = try await rings.store.fire("advance", on: try arguments.int("id"))
  return ["survived": true, "version": fired.version]
}

/// `hold --db D --id X --at POINT --hold MS [--marker DIR]`: fires `advance` on ring X and, at
/// that point of the transaction, prints `{"holding": true}` and blocks for MS milliseconds with
/// the row locked, so that a test can cut the connection under it. Reports how the fire ended.
func hold(_ arguments: WorkerArguments) async throws -> [String: Any] {
  AfterMarker.shared.use(arguments.optional("marker"))
  let rings = try openDatabase(arguments).rings(arguments)
  let milliseconds = try arguments.int("hold")
  let id = try arguments.int("id")
  try rings.onCrashPoint(try arguments.string("at")) {
    emit(["holding": true])
    Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
  }
  do throws(StateMachineStoreError) {
    let fired = try await rings.store.fire("advance", on: id)
    return ["to": fired.to, "version": fired.version]
  } catch {
    let unknown = if case .commitOutcomeUnknown = error { true } else { false }
    return ["error": "\(error)", "commitOutcomeUnknown": unknown]
  }
}

/// `fire --db D --id X --event E [--nowait] [--marker DIR]`: one fire by id; `--nowait` fails at
/// once if another connection holds the row's lock (P3). Reports the outcome and how long the
/// fire took.
func fireOnce(_ arguments: WorkerArguments) async throws -> [String: Any] {
  AfterMarker.shared.use(arguments.optional("marker"))
  let store = try openDatabase(arguments).rings(arguments).store
  let options = FireOptions(lock: arguments.flag("nowait") ? .noWait : .wait)
  let id = try arguments.int("id")
  let event = try arguments.string("event")
  // The connection is opened first, so that the time is the fire's and not the login's.
  _ = try await store.load(id)
  let start = ContinuousClock.now
  do {
    let fired = try await store.fire(event, on: id, options: options)
    return ["from": fired.from, "to": fired.to, "version": fired.version, "ms": milliseconds(since: start)]
  } catch {
    return ["error": "\(error)", "ms": milliseconds(since: start)]
  }
}

/// `deliver --db D --ledger FILE [--start-at MS] [--until MS] [--lease MS]`: delivers outbox
/// messages, appending `id entity version` per message to the ledger, until none is left to
/// claim, or, with `--until`, polling every 20 ms until that wall-clock time.
func deliver(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let rings = try openDatabase(arguments).rings(arguments)
  let ledger = try Ledger(try arguments.string("ledger"))
  let until = Double(arguments.optional("until") ?? "")
  rings.handle("ring") { message in try ledger.append("\(message.id) \(message.entityID) \(message.version)") }
  try await waitForStart(arguments)
  var delivered = 0
  while true {
    let count = try await rings.store.deliverOutbox(limit: 50)
    delivered += count
    if count > 0 { continue }
    guard let until, Date().timeIntervalSince1970 * 1000 < until else { break }
    try await Task.sleep(for: .milliseconds(20))
  }
  return ["delivered": delivered]
}

/// A file that lines are appended to with one `write` each (`O_APPEND`), so that the lines of
/// concurrent processes never interleave.
final class Ledger: Sendable {
  let descriptor: Int32

  init(_ path: String) throws {
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else { throw WorkerFailure("cannot open \(path): errno \(errno)") }
  }

  func append(_ line: String) throws {
    let bytes = Array("\(line)\n".utf8)
    guard write(descriptor, bytes, bytes.count) == bytes.count else { throw WorkerFailure("write failed: errno \(errno)") }
  }
}

/// Whole milliseconds since `start`.
func milliseconds(since start: ContinuousClock.Instant) -> Int {
  let elapsed = ContinuousClock.now - start
  return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
}
#endif

#if SQLite || PostgreSQL
/// `advance --db D --ring ID [--start-at MS]`: loads ring ID, waits for the start, then calls its
/// generated store method once (`try await ring.advance()`), not retried. Prints the outcome
/// (`committed`, `refused` or `conflict`) and the state and version the object holds afterwards
/// (Persistence P4: after a conflict, the winner's).
func advanceOnce(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let store = try openDatabase(arguments).rings(arguments).store
  let id = try arguments.int("ring")
  guard let ring = try await store.load(id) else { throw WorkerFailure("no ring \(id)") }
  try await waitForStart(arguments)
  let outcome: String
  do {
    outcome = try await ring.advance() ? "committed" : "refused"
  } catch .conflict {
    outcome = "conflict"
  }
  return ["outcome": outcome, "state": ring.state, "version": Ring.stateMachine.storedState(of: ring).version]
}
#endif
