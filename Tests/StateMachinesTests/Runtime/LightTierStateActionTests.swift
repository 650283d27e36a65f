// A flat transition whose code is plain `before`/`after` callbacks and plain exit and entry
// actions (each taking only the model) takes the light tier, in the order of Semantics steps 3, 4,
// 6, 7 and 8. The oracle is the full step: `fireOrThrow` always runs it, so a twin object fired
// through it must end in the same state with the same log, whatever throws.

import Testing

@testable import StateMachines

struct StateActionFailure: Error {}

/// Failures a test can switch on, by name.
@StateMachine
final class LightTierValve {
  var log: [String] = []
  var failing: Set<String> = []

  func record(_ entry: String) throws {
    log.append("\(entry) in \(state)")
    if failing.contains(entry) { throw StateActionFailure() }
  }

  static let stateMachine = StateMachineDefinition<LightTierValve> { sm in
    sm.addState("closed")
    sm.addState("open")
    sm.addState("vented")
    sm.when("open", transitionFrom: "closed", to: "open")
    sm.when("close", transitionFrom: "open", to: "closed")
    sm.when("vent", transitionFrom: "open", to: "vented")
    sm.when("reset", transitionFrom: "vented", to: "closed")
    sm.when("check", transitionFrom: "open", to: "open")  // external: exit and entry run
    sm.when("peek", transitionFrom: "open", to: "open", internal: true)  // neither runs
    sm.before("open") { try $0.record("before open") }
    sm.after("open") { try $0.record("after open") }
    sm.onExit("closed") { try $0.record("exit closed") }
    sm.onEntry("open") { try $0.record("entry open") }
    sm.onEntry("open") { try $0.record("second entry open") }
    sm.onExit("open") { valve in
      try valve.record("exit open")
      // Fired from an exit action: queued, runs after the step (or dropped if it aborts).
      if valve.failing.contains("queue reset") { valve.log.append("queued vent: \(valve.vent())") }
    }
    sm.onEntry("vented") { try $0.record("entry vented") }
    sm.after("vent") { try $0.record("after vent") }
  }
}

@Suite struct LightTierStateActionTests {
  /// Fires `event` on a fresh valve through the generated path (the light tier) and on a twin
  /// through `fireOrThrow` (the full step), after `prepare`; both must agree.
  func agree(_ events: [String], failing: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) {
    let light = LightTierValve()
    let full = LightTierValve()
    for valve in [light, full] { valve.failing = failing }
    var lightResults: [Bool] = []
    var fullResults: [Bool] = []
    for event in events {
      lightResults.append(light.fire(event))
      do {
        try full.fireOrThrow(event)
        fullResults.append(true)
      } catch {
        if case .callbackFailed(_, let happened, _) = error { fullResults.append(happened) } else { fullResults.append(false) }
      }
    }
    #expect(lightResults == fullResults, sourceLocation: sourceLocation)
    #expect(light.state == full.state, sourceLocation: sourceLocation)
    #expect(light.log == full.log, sourceLocation: sourceLocation)
  }

  @Test("Plain exit and entry actions keep their transitions on the light tier")
  func takesTheLightTier() {
    let compiled = LightTierValve.stateMachine.compiled
    // open, close, vent and check run code: light. peek (internal) and reset (no actions on
    // either side) run none: fast. Nothing takes the full step.
    #expect(compiled.fastSlots.filter(\.isLight).count == 4)
    #expect(compiled.fastSlots.filter(\.isFast).count == 2)
    #expect(!compiled.fastSlots.contains(.full))
  }

  @Test("Order: before, exit actions, the state, entry actions, after (Semantics steps 3, 4, 6, 7, 8)")
  func order() {
    let valve = LightTierValve()
    #expect(valve.open())
    #expect(valve.log == [
      "before open in closed", "exit closed in closed", "entry open in open", "second entry open in open",
      "after open in open",
    ])
    agree(["open", "close", "open", "vent", "reset"], failing: [])
  }

  @Test("An external self-transition runs exit and entry actions; an internal one runs neither")
  func selfTransitions() {
    let valve = LightTierValve()
    _ = valve.open()
    valve.log.removeAll()
    #expect(valve.check())
    #expect(valve.log == ["exit open in open", "entry open in open", "second entry open in open"])
    valve.log.removeAll()
    #expect(valve.peek())
    #expect(valve.log.isEmpty)
    agree(["open", "check", "peek", "check"], failing: [])
  }

  @Test("A throwing exit action aborts the step like a throwing before callback: the state stays", arguments: [
    "before open", "exit closed",
  ])
  func throwingBeforeTheWrite(failing: String) {
    let valve = LightTierValve()
    valve.failing = [failing]
    #expect(!valve.open())
    #expect(valve.isClosed)
    agree(["open", "open"], failing: [failing])
  }

  @Test("A throwing entry action keeps the new state and skips the rest, as a throwing after callback does", arguments: [
    "entry open", "second entry open", "after open",
  ])
  func throwingAfterTheWrite(failing: String) {
    let valve = LightTierValve()
    valve.failing = [failing]
    #expect(valve.open())
    #expect(valve.isOpen)
    #expect(valve.log.last == "\(failing) in open")
    agree(["open", "close"], failing: [failing])
  }

  @Test("An event fired from an exit action is queued, and dropped when a later exit action aborts the step")
  func queuedFromAnExitAction() {
    agree(["open", "close"], failing: ["queue reset"])
    agree(["open", "close"], failing: ["queue reset", "exit open"])
    let valve = LightTierValve()
    valve.failing = ["queue reset"]
    _ = valve.open()
    #expect(valve.close())
    // The queued vent ran after the step, from "closed": rejected there.
    #expect(valve.isClosed)
    #expect(valve.log.contains("queued vent: true"))
  }
}
