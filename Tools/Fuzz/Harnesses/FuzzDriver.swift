// Shared by the harnesses: load a definition (errors are expected and fine), then start a machine
// and fire each of its first events, so that the runtime sees what the loader accepted.
import Foundation
import StateMachines

enum FuzzDriver {
  /// What a harness passes its loader: the clock, and a builder step that lowers the run caps.
  struct Setup {
    let clock = ManualClock()

    /// A definition that loops (an event raised on every entry) runs to the cap of
    /// ``StateMachineBuilder/maxStepsPerRunToCompletion``: at the default 10,000 steps that takes
    /// over the one-second limit under AddressSanitizer, without being a hang.
    func limit(_ sm: StateMachineBuilder<DynamicStateMachine>) {
      sm.maxStepsPerRunToCompletion = 500
      sm.maxEventlessMicrosteps = 500
    }
  }

  static func load(_ make: (Setup) throws -> StateMachineDefinition<DynamicStateMachine>) {
    guard let definition = try? make(Setup()) else { return }
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
