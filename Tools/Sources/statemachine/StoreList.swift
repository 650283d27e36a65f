import ArgumentParser
import StateMachines

/// `statemachine store list --db DB --machine NAME [--state S]`: the instances' ids in order, all
/// of them or those in state `S`, a compound state matching its descendants (P14).
///
/// A scope is a read of committed rows: act on it with `fire`, which checks the event against the
/// row's state again. `--json` prints one `{"id", "state"}` object per instance, the state as read
/// just after the ids.
struct StoreList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the instances' ids, or those in a state (a compound state matches its descendants).")

  @OptionGroup var options: StoreOptions

  @Option(help: "Only the instances in this state (a name or a path).")
  var state: String?

  @Flag(help: "Print one JSON object per instance.")
  var json = false

  func run() async throws {
    try await runReporting {
      try await StoreMachine.with(options) { machine in
        let ids: [String]
        if let state {
          guard machine.definition.storedName(of: state) != nil else {
            throw ToolError("error: '\(state)' is not a state of machine '\(machine.name)'")
          }
          ids = try await machine.call { () async throws(StateMachineStoreError) in try await machine.store.ids(in: state, after: nil, limit: .max) }
        } else {
          ids = try await machine.call { () async throws(StateMachineStoreError) in try await machine.store.allIDs() }
        }
        guard json else {
          for id in ids { print(id) }
          return
        }
        let states = try await machine.database.states(machine.rows)
        for id in ids {
          printJSONLine(["id": id, "state": orNull(states[id])])
        }
      }
    }
  }
}
