import ArgumentParser
import Foundation
import StateMachines

/// `statemachine store run-due --db DB --machine NAME [--once]`: fires the due timeouts (P9, P10).
///
/// Each pass is one transaction (holding SQLite's write lock; on PostgreSQL locking the rows it
/// fires on and skipping those another pass holds) that consumes each due deadline with its
/// transition, so any number of these processes fire each deadline exactly once;
/// deadlines that came due while nothing ran fire once, oldest first. `--once` fires everything
/// due now and prints the number fired; without it the command polls every second and prints the
/// number fired by each pass that fired any, until interrupted.
struct StoreRunDue: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run-due", abstract: "Fire the due timeouts; --once: one pass, printing the number fired.")

  @OptionGroup var options: StoreOptions

  @Flag(help: "Fire what is due now, print the number fired and exit.")
  var once = false

  /// The deadlines one transaction consumes at most.
  static let batch = 32

  func run() async throws {
    try await runReporting {
      try await StoreMachine.with(options) { machine in
        if once {
          print(try await Self.fireDue(machine))
          return
        }
        while true {
          let fired = try await Self.fireDue(machine)
          // Unbuffered, so that each number is seen at once, also in a file or a pipe.
          if fired > 0 { FileHandle.standardOutput.write(Data("\(fired)\n".utf8)) }
          try await Task.sleep(for: .seconds(1))
        }
      }
    }
  }

  /// Passes until one finds less than a full batch due; the number of deadlines consumed.
  static func fireDue(_ machine: StoreMachine) async throws -> Int {
    var total = 0
    while true {
      let fired = try await machine.call { () async throws(StateMachineStoreError) in
        try await machine.store.fireDueTimeouts(limit: batch)
      }
      total += fired
      if fired < batch { return total }
    }
  }
}
