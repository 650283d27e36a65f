// The worker's mode on the dial machine (Persistence §9): many tasks of one process firing a pure
// event at once on either store's fast path (on PostgreSQL they share statements: "Fires batched
// under load" in Many application servers), while the test kills processes under them.

#if SQLite || PostgreSQL
import Foundation
import StateMachines

/// `spin --db D --rows N --tasks T --seed S --until MS --tally F [--start-at MS]`: T tasks fire
/// `turn` by id on random dials 1…N until the wall-clock time `--until`. Each success appends
/// `id version to` to the tally after the fire returned, so that a killed worker still leaves what
/// it knew to be committed. A fire by id waits for the row's lock and `turn` is always allowed, so
/// every fire must succeed (P3); anything else is an error. Reports the successes, the errors and
/// how many statements carried more than one fire.
func spin(_ arguments: WorkerArguments) async throws -> [String: Any] {
  let dials = try openDatabase(arguments).dials()
  let rows = try arguments.int("rows")
  let tasks = try arguments.int("tasks")
  let seed = try arguments.int("seed")
  let until = Double(try arguments.int("until"))
  let tally = try Ledger(try arguments.string("tally"))
  try await waitForStart(arguments)
  let outcomes = try await withThrowingTaskGroup(of: (successes: Int, errors: [String]).self) { group in
    for task in 0..<tasks {
      group.addTask {
        var random = SeededGenerator(seed: UInt64(seed * 1000 + task))
        var successes = 0
        var errors: [String] = []
        while Date().timeIntervalSince1970 * 1000 < until {
          let id = Int.random(in: 1...rows, using: &random)
          do {
            let fired = try await dials.store.fire("turn", on: id)
            successes += 1
            try tally.append("\(id) \(fired.version) \(fired.to)")
          } catch {
            errors.append("\(error)")
          }
        }
        return (successes, errors)
      }
    }
    return try await group.reduce(into: [(successes: Int, errors: [String])]()) { $0.append($1) }
  }
  return [
    "successes": outcomes.map(\.successes).reduce(0, +), "errors": outcomes.flatMap(\.errors),
    "sharedStatements": dials.sharedStatements(),
  ]
}
#endif
