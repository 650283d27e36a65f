import Foundation
import Testing

@testable import StateMachines

// One shape for every transition: every transition-declaring call (when, the wildcard, die,
// timeouts, notifications) takes the same guard and action forms, through the
// `TransitionDeclaration` it returns, with or without the `Transition`.

private let alarmNotification = Notification.Name("TransitionShapeTests.alarm")

/// One transition of each kind, each with a guard and an action that read the `Transition`. Its
/// clock and notification center are shared by the suite's tests, which therefore run one at a time.
@StateMachine
final class ShapeProbe: @unchecked Sendable {
  static let clock = ManualClock()
  static let center = NotificationCenter()
  var log: [String] = []
  var armed = true

  static let stateMachine = StateMachineDefinition<ShapeProbe> { sm in
    sm.clock = ShapeProbe.clock
    sm.notificationCenter = ShapeProbe.center
    sm.addState("idle")
    sm.addState("waiting")
    sm.addState("alarmed")
    sm.addState("broken")
    sm.when("wait", transitionFrom: "idle", to: "waiting")
    sm.when("expire", transitionFrom: "waiting", to: "idle", after: .seconds(5))
      .guarded { probe, transition in
        probe.log.append("guard \(transition.event) \(transition.from)->\(transition.to)")
        return probe.armed
      }
      .action { probe, transition in probe.log.append("action \(transition.event)") }
    sm.when("alarm", transitionFrom: "waiting", to: "alarmed", onNotification: alarmNotification)
      .guarded { $0.armed }
      .action { probe, transition in probe.log.append("action \(transition.event) from \(transition.from)") }
    sm.when("smash", transitionFromAnyStateTo: "broken")
      .guarded { _, transition in transition.payload(as: Int.self).map { $0 > 10 } ?? false }
      .action { probe, transition in probe.log.append("smash with \(transition.payload(as: Int.self) ?? 0)") }
    sm.die(on: "halt", from: ["idle", "waiting"])
      .guarded { _, transition in transition.payload(as: String.self) == "now" }
      .action { probe, transition in probe.log.append("halt in \(transition.from)") }
  }
}

/// Two guards must both pass; two actions run in order.
private func doubleGuarded(_ probe: FlatTestProbe) throws -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    sm.addState("a")
    sm.addState("b")
    sm.when("go", transitionFrom: "a", to: "b")
      .guarded { _ in probe.flags.contains("first") }
      .guarded { _, transition in transition.payload(as: Bool.self) == true }
      .action { _ in probe.log.append("action 1") }
      .action { _, transition in probe.log.append("action 2 \(transition.event)") }
  })
}

@Suite("One guard/action shape for every transition", .serialized, .timeLimit(.minutes(1)))
struct TransitionShapeTests {
  @Test("a timeout transition's guard and action see the Transition")
  func timeout() async {
    let probe = ShapeProbe()
    #expect(probe.wait())
    await ShapeProbe.clock.advance(by: .seconds(5))
    #expect(probe.isIdle)
    #expect(probe.log == ["guard expire waiting->idle", "action expire"])
  }

  @Test("a notification transition takes a plain guard and a Transition action")
  func notification() {
    let probe = ShapeProbe()
    #expect(probe.wait())
    ShapeProbe.center.post(name: alarmNotification, object: nil)
    #expect(probe.isAlarmed)
    #expect(probe.log == ["action alarm from waiting"])
  }

  @Test("a wildcard transition's guard sees the payload")
  func wildcard() {
    let probe = ShapeProbe()
    #expect(!probe.smash(with: 3))
    #expect(probe.isIdle)
    #expect(probe.smash(with: 42))
    #expect(probe.isBroken)
    #expect(probe.log == ["smash with 42"])
  }

  @Test("a die transition's guard sees the payload, its action the Transition")
  func die() {
    let probe = ShapeProbe()
    #expect(!probe.halt(with: "later"))
    #expect(!probe.isStateMachineTerminated)
    #expect(probe.halt(with: "now"))
    #expect(probe.isStateMachineTerminated)
    #expect(probe.log == ["halt in idle"])
  }

  @Test("two guards must both pass; two actions run in declaration order")
  func combined() throws {
    let probe = FlatTestProbe()
    let machine = try doubleGuarded(probe)
    #expect(!machine.fire("go", payload: true))
    probe.flags.insert("first")
    #expect(!machine.fire("go", payload: false))
    #expect(machine.fire("go", payload: true))
    #expect(probe.log == ["action 1", "action 2 go"])
  }

  @Test("declaring the same plain transition twice is harmless; a guarded repeat is a second candidate")
  func repeats() throws {
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("a")
      sm.addState("b")
      sm.when("go", transitionFrom: "a", to: "b")
      sm.when("go", transitionFrom: "a", to: "b")
      sm.when("go", transitionFrom: "a", to: "b").guarded { _ in false }
    })
    let compiled = machine.stateMachineDefinition.compiled
    #expect(compiled.declaredTransitions.count == 2)
    #expect(machine.fire("go"))
  }
}
