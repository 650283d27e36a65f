import ArgumentParser
import GRDB
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
      let machine = try StoreMachine(options)
      let ids: [String]
      if let state {
        guard machine.definition.storedName(of: state) != nil else {
          throw ToolError("error: '\(state)' is not a state of machine '\(machine.name)'")
        }
        ids = try await machine.call { () async throws(StateMachineStoreError) in try await machine.store.ids(in: state) }
      } else {
        ids = try await machine.call { () async throws(StateMachineStoreError) in try await machine.store.allIDs() }
      }
      guard json else {
        for id in ids { print(id) }
        return
      }
      let name = machine.name
      let states = try machine.database.read { db in
        try Dictionary(
          Row.fetchAll(db, sql: "SELECT entity_id, state FROM sm_instances WHERE machine = ?", arguments: [name])
            .map { ($0["entity_id"] as String, $0["state"] as String) },
          uniquingKeysWith: { first, _ in first })
      }
      for id in ids {
        printJSONLine(["id": id, "state": orNull(states[id])])
      }
    }
  }
}
