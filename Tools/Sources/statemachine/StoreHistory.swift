import ArgumentParser
import Foundation
import StateMachines

/// `statemachine store history --db DB --machine NAME ID`: an instance's transitions, oldest first,
/// one line each (P2: versions 1, 2, 3, … without gaps).
///
/// `--json` prints one object per transition: `{"version", "event", "from", "to", "cause",
/// "payload", "requestId", "dueAt", "at"}` (the columns of `sm_transitions`; times in ISO 8601).
struct StoreHistory: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "List an instance's transitions, oldest first.")

  @OptionGroup var options: StoreOptions

  @Argument(help: "The instance's id.")
  var id: String

  @Flag(help: "Print one JSON object per transition.")
  var json = false

  func run() async throws {
    try await runReporting {
      try await StoreMachine.with(options) { machine in
        let history = try await machine.call { () async throws(StateMachineStoreError) in
          try await machine.store.history(of: id)
        }
        if history.isEmpty { _ = try await machine.existing(id) }
        for transition in history {
          if json {
            printJSONLine([
              "version": transition.version, "event": transition.event, "from": transition.from, "to": transition.to,
              "cause": transition.cause.rawValue, "payload": embeddedJSON(transition.payload),
              "requestId": orNull(transition.requestID?.uuidString), "dueAt": orNull(transition.dueAt.map(timestamp)),
              "at": timestamp(transition.at),
            ])
          } else {
            var line = "\(transition.version) \(timestamp(transition.at)) \(transition.cause.rawValue)"
            line += " \(transition.event.isEmpty ? "-" : transition.event): \(transition.from) -> \(transition.to)"
            if let payload = transition.payload { line += " payload \(String(decoding: payload, as: UTF8.self))" }
            if let requestID = transition.requestID { line += " request \(requestID.uuidString)" }
            if let dueAt = transition.dueAt { line += " due \(timestamp(dueAt))" }
            print(line)
          }
        }
      }
    }
  }
}
