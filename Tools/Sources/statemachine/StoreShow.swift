import ArgumentParser
import Foundation
import GRDB
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

  /// A pending deadline, as shown.
  struct Deadline {
    let state: String?
    let event: String
    let dueAt: Date
  }

  func run() async throws {
    try await runReporting {
      let machine = try StoreMachine(options)
      let (name, id) = (machine.name, self.id)
      let snapshot = try machine.database.read { db -> (Row, [Deadline])? in
        guard
          let row = try Row.fetchOne(
            db, sql: "SELECT state, sm_version, sm_terminated FROM sm_instances WHERE machine = ? AND entity_id = ?",
            arguments: [name, id])
        else { return nil }
        let deadlines = try Row.fetchAll(
          db, sql: "SELECT state, event, due_at FROM sm_deadlines WHERE machine = ? AND entity_id = ? ORDER BY due_at, id",
          arguments: [name, id]
        ).map { Deadline(state: $0["state"], event: $0["event"], dueAt: Date(timeIntervalSince1970: Double($0["due_at"] as Int64) / 1000)) }
        return (row, deadlines)
      }
      guard let (row, deadlines) = snapshot else { throw ToolError("error: machine '\(name)' has no row with id '\(id)'") }
      let state: String = row["state"]
      let version: Int64 = row["sm_version"]
      let terminated: Bool = row["sm_terminated"]
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
