// Shared by the harnesses: load a definition (errors are expected and fine), then start a machine
// and fire each of its first events, so that the runtime sees what the loader accepted.
import Foundation
import StateMachines

enum FuzzDriver {
  static func load(_ make: (ManualClock) throws -> StateMachineDefinition<DynamicStateMachine>) {
    let clock = ManualClock()
    guard let definition = try? make(clock) else { return }
    let machine = DynamicStateMachine(definition)
    try? machine.startStateMachine()
    for event in definition.events.prefix(8) {
      _ = machine.fire(event)
      _ = machine.state
    }
    _ = definition.dotDiagram
    _ = definition.mermaidDiagram
  }
}
