// The worker's modes on the ring machine (PERSISTENCE.md §9): setup, the race, the kill at a
// crash point, a single fire, and outbox delivery into a ledger.

#if SQLite
import Foundation
import GRDB
import StateMachines
@_spi(Testing) import StateMachinesSQLite

/// `setup --db F --rows N [--disabled K]`: the tables, and rings 1…N in s0; the last K have
/// `enabled = false`, so their guards refuse every `advance`.
func setupRings(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let pool = try openDatabase(try arguments.string("db"))
  try createTables(pool)
  let rows = try arguments.int("rows")
  let disabled = try arguments.int("disabled", default: 0)
  let store = Ring.store(pool)
  for id in 1...rows { try await store.insert(Ring(id: id, enabled: id <= rows - disabled)) }
  return ["inserted": rows]
}

/// `race --db F --rows N --events E --mode id|stale --seed S [--start-at MS]`: E random events
/// (`advance`, or `reset` one time in four) on random rings. `id` fires by id (P3); `stale`
/// keeps an object per ring and fires on it, so that it is stale whenever another process wrote
/// the row since, with `retry: .reload(max: 3)` (P4). Counts successes, rejections and conflicts
/// (retries exhausted), and the stale fires that were reloaded; anything else is an error.
func race(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let store = Ring.store(try openDatabase(try arguments.string("db")))
  let rows = try arguments.int("rows")
  let events = try arguments.int("events")
  let stale = try arguments.string("mode") == "stale"
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
  for _ in 0..<events {
    let id = Int.random(in: 1...rows, using: &random)
    let event = Int.random(in: 0..<4, using: &random) == 0 ? "reset" : "advance"
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
      successes += 1
    } catch {
      switch error {
      case .rejected: rejections += 1
      case .conflict: conflicts += 1
      default: errors.append("\(error)")
      }
    }
  }
  return ["successes": successes, "rejections": rejections, "conflicts": conflicts, "reloaded": reloaded, "errors": errors]
}

/// `crash --db F --id X --at afterLock|afterWrite|beforeCommit|afterCommit [--marker DIR]`:
/// fires `advance` on ring X and kills the process with SIGKILL at that point of the transaction
/// (PERSISTENCE.md §9). Prints a summary only if the point was never reached.
func crash(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let name = try arguments.string("at")
  guard let point = StoreCrashPoint(rawValue: name) else { throw WorkerFailure("no crash point '\(name)'") }
  AfterMarker.shared.use(arguments.optional("marker"))
  let store = Ring.store(try openDatabase(try arguments.string("db")))
  store.onCrashPoint { reached in
    if reached == point { kill(getpid(), SIGKILL) }
  }
  let fired = try await store.fire("advance", on: try arguments.int("id"))
  return ["survived": true, "version": fired.version]
}

/// `fire --db F --id X --event E [--nowait] [--marker DIR]`: one fire by id; `--nowait` fails at
/// once if another connection holds the write lock (P3). Reports the outcome and how long the
/// fire took.
func fireOnce(_ arguments: WorkerArguments) async throws -> [String: Any] {
  AfterMarker.shared.use(arguments.optional("marker"))
  let store = Ring.store(try openDatabase(try arguments.string("db")))
  let options = FireOptions(lock: arguments.flag("nowait") ? .noWait : .wait)
  let start = ContinuousClock.now
  do {
    let fired = try await store.fire(try arguments.string("event"), on: try arguments.int("id"), options: options)
    let elapsed = ContinuousClock.now - start
    return [
      "from": fired.from, "to": fired.to, "version": fired.version,
      "ms": Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000),
    ]
  } catch {
    return ["error": "\(error)"]
  }
}

/// `deliver --db F --ledger FILE [--start-at MS]`: delivers outbox messages until none is left
/// to claim, appending `id entity version` per message to the ledger (one `write` with
/// `O_APPEND`, so lines of concurrent processes never interleave).
func deliver(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let store = Ring.store(try openDatabase(try arguments.string("db")))
  let ledger = open(try arguments.string("ledger"), O_WRONLY | O_APPEND | O_CREAT, 0o644)
  guard ledger >= 0 else { throw WorkerFailure("cannot open the ledger: errno \(errno)") }
  defer { close(ledger) }
  store.handle("ring") { message in
    let line = Array("\(message.id) \(message.entityID) \(message.version)\n".utf8)
    guard write(ledger, line, line.count) == line.count else { throw WorkerFailure("ledger write failed") }
  }
  try await waitForStart(arguments)
  var delivered = 0
  while true {
    let count = try await store.deliverOutbox(limit: 50)
    if count == 0 { break }
    delivered += count
  }
  return ["delivered": delivered]
}
#endif
