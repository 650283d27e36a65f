import Foundation
import Testing

@testable import StateMachines

/// Timeouts, the verbose log and diagrams work for a definition built at run time, too.
@Suite(.timeLimit(.minutes(1))) struct DynamicTriggersAndDiagramTests {
  @Test func aDynamicMachineTimesOutOnItsInjectedClock() async throws {
    let clock = ManualClock()
    let states = ["idle", "busy", "done"]
    let machine = try DynamicStateMachine(validating: { sm in
      sm.clock = clock
      for state in states { sm.addState(state) }
      sm.when("work", transitionFrom: "idle", to: "busy")
      sm.when("finish", transitionFrom: "busy", to: "done", after: .seconds(3))
    })
    #expect(machine.fire("work"))
    #expect(Triggers.armedTimeoutCount(machine.stateMachineDefinition, of: machine) == 1)
    await clock.advance(by: .seconds(3))
    #expect(machine.state == "done")
    #expect(clock.armedTimeoutCount == 0)
  }

  @Test func aDynamicDefinitionLogsAndDrawsItself() throws {
    let lines = TestRecorder()
    let machine = try DynamicStateMachine(validating: { sm in
      sm.log = StateMachineLog { lines.append($0) }
      sm.addState("off")
      sm.addState("on")
      sm.when("toggle", transitionFrom: "off", to: "on").guarded { _ in true }
    })
    #expect(machine.fire("toggle"))
    #expect(lines.lines.contains("[DynamicStateMachine] transition 'off' -> 'on' on 'toggle'"))
    let dot = machine.stateMachineDefinition.dotDiagram
    #expect(dot.contains("\"off\" -> \"on\" [label=\"toggle [guard]\"];"))
    #expect(machine.stateMachineDefinition.mermaidDiagram.contains("s0 --> s1 : toggle [guard]"))
  }
}
