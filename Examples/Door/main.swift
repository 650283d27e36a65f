// A door that shows guards, entry and exit actions, a timeout and a diagram.
//
//   swift run Door
import Foundation
import StateMachines

@MainActor
@StateMachine
final class Door {
  /// How long the door stays closed before it locks itself.
  static let autoLockDelay = Duration.seconds(1)

  var hasKey = false
  private(set) var log: [String] = []

  static let stateMachine = StateMachineDefinition<Door> { sm in
    sm.addState("opened")
    sm.addState("closed")
    sm.addState("locked")
    sm.addFinalState("broken")

    sm.when("close", transitionFrom: "opened", to: "closed")
    sm.when("open", transitionFrom: "closed", to: "opened")
    sm.when("unlock", transitionFrom: "locked", to: "closed").guarded { $0.hasKey }
    sm.when("lock", transitionFrom: "closed", to: "locked", after: Door.autoLockDelay)
    sm.when("kick", transitionFromAnyStateTo: "broken")

    sm.onEntry("locked") { $0.log.append("click: locked") }
    sm.onExit("locked") { $0.log.append("clack: unlocked") }
    sm.after("kick") { $0.log.append("the door is broken for good") }
  }

  func say(_ message: String) {
    print(message)
    log.removeAll()
  }
}

@MainActor
func walkThrough() async {
  let door = Door()
  print("state: \(door.state)")
  print("close() -> \(door.close()), state: \(door.state)")
  print("waiting \(Door.autoLockDelay) for the door to lock itself…")
  for await transition in door.stateTransitions {
    print("  \(transition)")
    if transition.to == "locked" { break }
  }
  door.say("  log: \(door.log)")
  print("unlock() without a key (guard fails) -> \(door.unlock()), state: \(door.state)")
  door.hasKey = true
  print("canUnlock with a key -> \(door.canUnlock)")
  print("unlock() -> \(door.unlock()), state: \(door.state)")
  door.say("  log: \(door.log)")
  print("open() -> \(door.open()), state: \(door.state)")
  print("kick() -> \(door.kick()), state: \(door.state), terminated: \(door.isStateMachineTerminated)")
  door.say("  log: \(door.log)")
  do {
    try door.fireOrThrow("close")
  } catch {
    print("fireOrThrow(\"close\") -> \(error)")
  }
  print("\nGraphviz DOT (render with `dot -Tsvg`):\n\(Door.stateMachine.dotDiagram)")
  print("Mermaid:\n\(Door.stateMachine.mermaidDiagram)")
}

await walkThrough()
