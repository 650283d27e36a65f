// The worker's modes on the booking machine (Persistence §9, restart with due timeouts): the
// first phase that inserts and confirms, and scheduler passes, on a manual clock set to a later
// time, or on the database's clock (P15) with `--database-clock`.

#if SQLite || PostgreSQL
import Foundation
import StateMachines

/// `book --db D --now MS --reserved N --awaiting M [--confirm K] [--spacing MS] [--kill]`: the
/// tables, N reserved bookings (ids 1…N, the i-th inserted at `now + (i - 1) × spacing`, so its
/// release is due 2 s later), M awaiting payment (ids N+1…N+M, at `now`), then `confirm` on
/// 1…K, all on a manual clock (P15); with `--database-clock` instead of `--now`, on the
/// database's clock, in real time. With `--kill` the process prints its summary and dies by
/// SIGKILL, as a process that is killed rather than shut down.
func book(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let database = try openDatabase(arguments)
  try await database.createTables()
  let databaseClock = arguments.flag("database-clock")
  let start = try databaseClock ? Date() : date(arguments, "now")
  let clock = ManualStoreClock(start: start)
  let store = database.bookings(clock: databaseClock ? .database : .manual(clock))
  let reserved = try arguments.int("reserved")
  let awaiting = try arguments.int("awaiting")
  let confirm = try arguments.int("confirm", default: 0)
  let spacing = try arguments.int("spacing", default: 0)
  for id in stride(from: 1, through: reserved, by: 1) {
    clock.set(start + Double((id - 1) * spacing) / 1000)
    try await store.insert(Booking(id: id, awaitsPayment: false))
  }
  clock.set(start)
  for id in stride(from: reserved + 1, through: reserved + awaiting, by: 1) {
    try await store.insert(Booking(id: id, awaitsPayment: true))
  }
  for id in stride(from: 1, through: confirm, by: 1) { try await store.fire("confirm", on: id) }
  let summary: [String: Any] = ["inserted": reserved + awaiting, "confirmed": confirm]
  if arguments.flag("kill") {
    emit(summary)
    kill(getpid(), SIGKILL)
  }
  return summary
}

/// `schedule --db D --now MS [--rounds R --spacing MS --period MS] [--start-at MS]`: scheduler
/// passes (`fireDueTimeouts`, P9, P10) on a manual clock at `now` (or, with `--database-clock`,
/// on the database's) until a pass finds nothing due. With rounds, round i sets the clock to
/// `now + i × spacing` and begins at `start-at + i × period` on the wall clock, so that two
/// workers poll each round together. Reports the deadlines fired, in all and per round.
func schedule(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let database = try openDatabase(arguments)
  let databaseClock = arguments.flag("database-clock")
  let start = try databaseClock ? Date() : date(arguments, "now")
  let clock = ManualStoreClock(start: start)
  let store = database.bookings(clock: databaseClock ? .database : .manual(clock))
  let rounds = try arguments.int("rounds", default: 1)
  let spacing = try arguments.int("spacing", default: 0)
  let period = try arguments.int("period", default: 0)
  let startAt = Double(arguments.optional("start-at") ?? "") ?? Date().timeIntervalSince1970 * 1000
  var fired: [Int] = []
  var passes = 0
  for round in 0..<rounds {
    let begin = startAt + Double(round * period)
    let delay = begin - Date().timeIntervalSince1970 * 1000
    if delay > 0 { try await Task.sleep(for: .milliseconds(Int(delay))) }
    clock.set(start + Double(round * spacing) / 1000)
    var count = 0
    while true {
      passes += 1
      let pass = try await store.fireDueTimeouts(limit: 32)
      if pass == 0 { break }
      count += pass
    }
    fired.append(count)
  }
  return ["fired": fired.reduce(0, +), "rounds": fired, "passes": passes]
}
#endif
