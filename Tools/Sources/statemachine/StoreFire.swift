import ArgumentParser
import Foundation
import StateMachines

/// `statemachine store fire --db DB --machine NAME ID EVENT`: fires an event on one instance, in
/// one transaction that waits for the database's write lock and evaluates the event against the
/// row as the previous writer committed it (P1, P3).
///
/// Exit status 0: a transition happened; 3: the machine rejected the event (the reason on standard
/// error); 1: an error (an unknown id, an event the chart does not have, a row whose state is not
/// in the chart, a database error). The row is unchanged unless the status is 0.
///
/// `--request-id` makes a retried fire safe (P6): the id is stored with the step's history, and a
/// fire whose id is already recorded for this machine with the same ID and EVENT writes nothing and
/// reports that step again (exit 0); with another ID or EVENT it is an error (exit 1).
///
/// `--json` prints `{"outcome": "transition" | "rejected", "reason", "state", "version"}` (and
/// `"replayed": true` for a recorded step).
struct StoreFire: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fire",
    abstract: "Fire an event on an instance: exit 0 transition, 3 rejected, 1 error.")

  @OptionGroup var options: StoreOptions

  @Argument(help: "The instance's id.")
  var id: String

  @Argument(help: "The event.")
  var event: String

  @Option(help: "The event's payload, JSON; stored with the step's history.")
  var payload: String?

  @Option(name: .customLong("request-id"), help: "A UUID that makes a retried fire safe (P6).")
  var requestID: String?

  @Flag(help: "Print the outcome as one JSON object.")
  var json = false

  func run() async throws {
    var rejection: String?
    try await runReporting {
      let payload = try payload.map(JSONPayload.parse)
      var options = FireOptions()
      if let requestID {
        guard let uuid = UUID(uuidString: requestID) else { throw ToolError("error: --request-id is not a UUID: \(requestID)") }
        options.requestID = uuid
      }
      try await StoreMachine.with(self.options) { machine in
        guard machine.definition.hasEvent(event) else {
          throw ToolError("error: '\(event)' is not an event of machine '\(machine.name)'")
        }
        let result: Result<Fired<DynamicStateMachine>, StateMachineStoreError>
        do throws(StateMachineStoreError) {
          result = .success(try await machine.store.fire(event, on: id, payload: payload, options: options))
        } catch {
          result = .failure(error)
        }
        switch result {
        case .success(let fired):
          report(fired)
        case .failure(.rejected(let error)):
          rejection = oneLine("\(error)")
          let stored = try await machine.existing(id)
          if json {
            printJSONLine(["outcome": "rejected", "reason": rejection!, "state": stored.state, "version": stored.version])
          }
        case .failure(.notFound):
          throw ToolError("error: machine '\(machine.name)' has no row with id '\(id)'")
        case .failure(let error):
          throw ToolError("error: \(machine.database.describe(error))")
        }
      }
    }
    if let rejection {
      printError("rejected: \(rejection)")
      throw rejectedExitCode
    }
  }

  private func report(_ fired: Fired<DynamicStateMachine>) {
    if json {
      var object: [String: Any] = [
        "outcome": "transition", "reason": NSNull(), "state": fired.to, "version": fired.version,
      ]
      if fired.replayed { object["replayed"] = true }
      printJSONLine(object)
    } else {
      print("\(id): \(fired.from) -> \(fired.to) (version \(fired.version))\(fired.replayed ? " (replayed)" : "")")
    }
  }
}
