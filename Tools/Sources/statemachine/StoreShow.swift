import ArgumentParser
import Foundation
import StateMachines

/// `statemachine store show --db DB --machine NAME ID`: an instance's state, configuration,
/// version, whether it terminated, and its pending deadlines, read in one snapshot (P14).
///
/// A row whose state is not in the chart (P12) is shown too (its configuration `null`), so that
/// an operator can see what to repair. `--json` prints `{"id", "state", "configuration",
/// "version", "terminated", "deadlines": [{"state", "event", "dueAt"}]}`.
struct StoreShow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show an instance: state, version, terminated, pending deadlines.")

  @OptionGroup var options: StoreOptions

  @Argument(help: "The instance's id.")
  var id: String

  @Flag(help: "Print one JSON object.")
  var json = false

  func run() async throws {
    try await runReporting {
      try await StoreMachine.with(options) { machine in
        let (name, id) = (machine.name, self.id)
        guard let snapshot = try await machine.database.snapshot(machine.rows, id: id) else {
          throw ToolError("error: machine '\(name)' has no row with id '\(id)'")
        }
        let (state, version, terminated, deadlines) = (
          snapshot.state, snapshot.version, snapshot.terminated, snapshot.deadlines
        )
        let active = machine.definition.activeStates(inStored: state)
        if json {
          printJSONLine([
            "id": id, "state": state, "configuration": active.isEmpty ? NSNull() : active, "version": version,
            "terminated": terminated,
            "deadlines": deadlines.map { ["state": orNull($0.state), "event": $0.event, "dueAt": timestamp($0.dueAt)] },
          ])
          return
        }
        print("id: \(id)")
        print("state: \(state)\(active.isEmpty ? " (not a state of the chart)" : "")")
        if !active.isEmpty { print("configuration: \(active.joined(separator: ", "))") }
        print("version: \(version)")
        print("terminated: \(terminated)")
        for deadline in deadlines {
          print("deadline: \(deadline.event) due \(timestamp(deadline.dueAt))\(deadline.state.map { " (armed by \($0))" } ?? "")")
        }
      }
    }
  }
}
