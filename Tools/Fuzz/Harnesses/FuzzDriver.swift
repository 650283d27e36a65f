// Shared by the harnesses: load a definition (errors are expected and fine), then start a machine
// and fire each of its first events, so that the runtime sees what the loader accepted.
import Foundation
import StateMachines

enum FuzzDriver {
  /// What a harness passes its loader: the clock, and a builder step that lowers the run caps.
  struct Setup {
    let clock = ManualClock()

    /// A definition that loops (an event raised or sent on every entry) runs to the cap of
    /// ``StateMachineBuilder/maxStepsPerRunToCompletion`` on every event the driver fires. Under
    /// AddressSanitizer and coverage a step of such a loop takes some 100 µs: the default 10,000
    /// steps took over the one-second limit, and so did 500 (nine runs, 4,500 steps, on a busy
    /// machine), without being a hang. At 100 the nine runs take some 100 ms.
    func limit(_ sm: StateMachineBuilder<DynamicStateMachine>) {
      sm.maxStepsPerRunToCompletion = 100
      sm.maxEventlessMicrosteps = 100
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
