import ArgumentParser
import Foundation
import StateMachines

/// `statemachine run FILE --events a,b,c`: the configuration after start and after each event.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Start a definition and fire events; print the configuration after each (guards pass, actions are listed).")

  @Argument(help: "A definition file.")
  var file: String

  @Option(help: "Events to fire, separated by commas.")
  var events: String = ""

  @Flag(help: "Print JSON: one object per step.")
  var json = false

  /// The actions run during one step, in order.
  final class ActionLog: @unchecked Sendable {
    var names: [String] = []
  }

  func run() throws {
    let actions = ActionLog()
    let definition: StateMachineDefinition<DynamicStateMachine>
    do {
      definition = try DefinitionFile(file).load { actions.names.append($0) }
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    let machine = DynamicStateMachine(definition)
    var steps: [Step] = []
    do {
      try machine.startStateMachine()
      steps.append(Step(event: nil, accepted: true, error: nil, actions: actions.names, machine: machine))
    } catch {
      steps.append(Step(event: nil, accepted: false, error: "\(error)", actions: actions.names, machine: machine))
    }
    for event in events.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !event.isEmpty {
      actions.names = []
      do {
        try machine.fireOrThrow(event)
        steps.append(Step(event: event, accepted: true, error: nil, actions: actions.names, machine: machine))
      } catch {
        steps.append(Step(event: event, accepted: false, error: "\(error)", actions: actions.names, machine: machine))
      }
    }
    for step in steps { print(json ? step.json : step.text) }
  }

  /// One line of output.
  struct Step {
    let event: String?
    let accepted: Bool
    let error: String?
    let actions: [String]
    let state: String
    let active: [String]
    let terminated: Bool

    init(event: String?, accepted: Bool, error: String?, actions: [String], machine: DynamicStateMachine) {
      self.event = event
      self.accepted = accepted
      self.error = error
      self.actions = actions
      state = machine.state
      active = machine.activeStates
      terminated = machine.isStateMachineTerminated
    }

    var text: String {
      let head = event.map { "\($0) ->" } ?? "start:"
      var line = "\(head) \(state)"
      if !actions.isEmpty { line += "  actions: \(actions.joined(separator: ", "))" }
      if let error { line += "  (\(accepted ? "" : "rejected: ")\(error))" }
      if terminated { line += "  [terminated]" }
      return line
    }

    var json: String {
      let object: [String: Any] = [
        "event": event.map { $0 as Any } ?? NSNull(), "accepted": accepted, "state": state, "active": active,
        "actions": actions, "terminated": terminated, "error": error.map { $0 as Any } ?? NSNull(),
      ]
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
      return String(decoding: data, as: UTF8.self)
    }
  }
}
