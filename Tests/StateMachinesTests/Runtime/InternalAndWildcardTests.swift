import StateMachines
import Testing

// Internal transitions (Semantics §Rules around the steps) and wildcard transitions
// (Semantics §Definition).

/// `refresh` is an internal self-transition of `on`, `restart` a plain (external) one.
@StateMachine
final class InternalLamp {
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<InternalLamp> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("switchOn", transitionFrom: "off", to: "on")
    sm.when("refresh", transitionFrom: "on", to: "on", internal: true)
    sm.when("restart", transitionFrom: "on", to: "on")
    sm.when("tune", transitionFrom: "on", to: "on", internal: true)
      .action { lamp in lamp.log.append("action tune in \(lamp.state)") }
    sm.onExit("on") { $0.log.append("exit on") }
    sm.onEntry("on") { $0.log.append("entry on") }
    for event in ["refresh", "restart", "tune"] {
      sm.before(event) { lamp in lamp.log.append("before \(event)") }
      sm.after(event) { lamp in lamp.log.append("after \(event)") }
    }
    sm.didTransition { lamp, transition in
      lamp.log.append("observer \(transition.from)-\(transition.event)->\(transition.to)")
    }
  }
}

/// An internal transition that leads to another state: the definition is invalid.
@StateMachine
final class InternalBrokenLamp {
  var entries = 0

  static let stateMachine = StateMachineDefinition<InternalBrokenLamp> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("switchOn", transitionFrom: "off", to: "on", internal: true)
    sm.onEntry("on") { $0.entries += 1 }
  }
}

/// `smash` leads from any state to `broken`, except from `shielded`, whose own transition is
/// declared after the wildcard and still wins; from `guarded` a specific transition with a guard
/// comes first and the wildcard is the fallback.
@StateMachine
final class WildcardVase {
  var armorOn = false
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<WildcardVase> { sm in
    sm.addState("idle")
    sm.addState("working")
    sm.addState("shielded")
    sm.addState("guarded")
    sm.addState("broken")
    sm.addState("dented")
    sm.when("work", transitionFrom: "idle", to: "working")
    sm.when("smash", transitionFromAnyStateTo: "broken").action { $0.log.append("wildcard smash") }
    sm.when("smash", transitionFrom: "shielded", to: "shielded").action { $0.log.append("specific smash") }
    sm.when("smash", transitionFrom: "guarded", to: "dented").guarded { $0.armorOn }
  }
}

/// A toy built at run time whose wildcard event is `break`: a Swift keyword, which could not be
/// a generated method, but is fine fired by name.
private let wildcardBreakEvent = "break"
private let wildcardStates = ["idle", "working", "broken"]

private func makeWildcardToy() throws(DefinitionError) -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for state in wildcardStates { sm.addState(state) }
    sm.when("play", transitionFrom: wildcardStates[0], to: wildcardStates[1])
    sm.when(wildcardBreakEvent, transitionFromAnyStateTo: wildcardStates[2])
  })
}

@Suite("Internal and wildcard transitions")
struct InternalAndWildcardTests {
  // MARK: Internal

  @Test("an internal self-transition runs before and after but no exit or entry")
  func internalTransition() {
    let lamp = InternalLamp()
    #expect(lamp.switchOn())
    lamp.log = []
    #expect(lamp.refresh())
    #expect(lamp.state == "on")
    #expect(lamp.log == ["before refresh", "after refresh", "observer on-refresh->on"])
  }

  @Test("an internal self-transition runs its action")
  func internalTransitionAction() {
    let lamp = InternalLamp()
    #expect(lamp.switchOn())
    lamp.log = []
    #expect(lamp.fire("tune"))
    #expect(lamp.log == ["before tune", "action tune in on", "after tune", "observer on-tune->on"])
  }

  @Test("a plain self-transition is external: exit and entry run")
  func externalSelfTransition() {
    let lamp = InternalLamp()
    #expect(lamp.switchOn())
    #expect(lamp.log == ["entry on", "observer off-switchOn->on"])
    lamp.log = []
    #expect(lamp.restart())
    #expect(lamp.state == "on")
    #expect(lamp.log == ["before restart", "exit on", "entry on", "after restart", "observer on-restart->on"])
  }

  @Test("an internal transition to another state makes the definition invalid")
  func internalToOtherStateIsInvalid() {
    let expected = DefinitionError.internalTransitionChangesState(event: "switchOn")
    #expect(InternalBrokenLamp.stateMachine.definitionError == expected)
    #expect(expected.description.contains("switchOn"))
    let lamp = InternalBrokenLamp()
    #expect(!lamp.switchOn())
    #expect(stateMachineError { try lamp.fireOrThrow("switchOn") } == .invalidDefinition(expected))
    #expect(lamp.state == "off")
    #expect(lamp.entries == 0)
  }

  @Test("init(validating:) throws for an internal transition from several states")
  func internalFromSeveralStatesIsInvalid() {
    let error = definitionError {
      _ = try StateMachineDefinition<InternalLamp>(validating: { sm in
        sm.addState("off")
        sm.addState("on")
        sm.when("toggle", transitionFrom: ["off", "on"], to: "on", internal: true)
      })
    }
    #expect(error == .internalTransitionChangesState(event: "toggle"))
  }

  // MARK: Wildcard

  @Test(
    "a wildcard transition is taken from every state without a specific one",
    arguments: ["idle", "working", "broken", "dented"])
  func wildcardFromEveryState(from state: String) throws {
    let vase = WildcardVase()
    try vase.restoreState(state)
    #expect(vase.canSmash)
    #expect(vase.availableEvents.contains("smash"))
    #expect(vase.smash())
    #expect(vase.state == "broken")
    #expect(vase.log == ["wildcard smash"])
  }

  @Test("a specific from-state transition wins over the wildcard, whatever the declaration order")
  func specificWinsOverWildcard() throws {
    let vase = WildcardVase()
    try vase.restoreState("shielded")
    #expect(vase.smash())
    #expect(vase.state == "shielded")
    #expect(vase.log == ["specific smash"])
  }

  @Test("a specific transition whose guard fails falls back to the wildcard")
  func wildcardIsFallbackForFailingGuard() throws {
    let armored = WildcardVase()
    armored.armorOn = true
    try armored.restoreState("guarded")
    #expect(armored.smash())
    #expect(armored.state == "dented")
    #expect(armored.log.isEmpty)

    let bare = WildcardVase()
    try bare.restoreState("guarded")
    #expect(bare.smash())
    #expect(bare.state == "broken")
    #expect(bare.log == ["wildcard smash"])
  }

  @Test(
    "a wildcard of a definition built at run time, fired by name from every state",
    arguments: ["idle", "working", "broken"])
  func dynamicWildcard(from state: String) throws {
    let toy = try makeWildcardToy()
    try toy.restoreState(state)
    #expect(toy.can("break"))
    #expect(toy.fire("break"))
    #expect(toy.state == "broken")
    #expect(!toy.fire("play"))
  }
}
