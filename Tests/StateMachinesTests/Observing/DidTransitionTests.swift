import StateMachines
import Testing

// didTransition observers (Semantics step 8): told (old state, event, new state) after every
// transition, once the after callbacks ran; never for a rejected event.

/// A traffic light with a guarded `go`, an internal `blink`, a final `off` and two observers.
@StateMachine
final class DidTransitionLight {
  var powered = true
  var seen: [CompletedTransition] = []
  var secondObserver: [String] = []
  var stateSeenByObserver: [String] = []

  static let stateMachine = StateMachineDefinition<DidTransitionLight> { sm in
    sm.addState("red")
    sm.addState("green")
    sm.addState("yellow")
    sm.addFinalState("off")
    sm.when("go", transitionFrom: "red", to: "green").guarded { $0.powered }
    sm.when("slow", transitionFrom: "green", to: "yellow")
    sm.when("stop", transitionFrom: "yellow", to: "red")
    sm.when("blink", transitionFrom: "yellow", to: "yellow", internal: true)
    sm.when("switchOff", transitionFrom: ["red", "green", "yellow"], to: "off")
    sm.after("slow") { light in
      // Fired from a callback: queued, observed after `slow`.
      light.blink()
    }
    sm.didTransition { light, transition in
      light.seen.append(CompletedTransition(from: transition.from, event: transition.event, to: transition.to))
      light.stateSeenByObserver.append(light.state)
    }
    sm.didTransition { light, transition in light.secondObserver.append(transition.event) }
  }
}

/// Names from an array, as a definition loaded at run time has them.
private let didTransitionRing = ["n", "e", "s", "w"]

/// A compass built at run time: `turn` moves clockwise; an observer writes each transition to the
/// probe as `from-event->to`.
private func makeDidTransitionCompass(_ probe: FlatTestProbe) throws(DefinitionError) -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for state in didTransitionRing { sm.addState(state) }
    for (index, state) in didTransitionRing.enumerated() {
      sm.when("turn", transitionFrom: state, to: didTransitionRing[(index + 1) % didTransitionRing.count])
    }
    sm.didTransition { _, transition in probe.log.append("\(transition.from)-\(transition.event)->\(transition.to)") }
  })
}

@Suite("didTransition observers")
struct DidTransitionTests {
  @Test("each transition is reported once with old state, event and new state")
  func reportsEachTransition() {
    let light = DidTransitionLight()
    #expect(light.go())
    #expect(light.slow())
    #expect(light.stop())
    #expect(
      light.seen == [
        CompletedTransition(from: "red", event: "go", to: "green"),
        CompletedTransition(from: "green", event: "slow", to: "yellow"),
        CompletedTransition(from: "yellow", event: "blink", to: "yellow"),
        CompletedTransition(from: "yellow", event: "stop", to: "red"),
      ])
    #expect(light.stateSeenByObserver == ["green", "yellow", "yellow", "red"])
  }

  @Test("observers run in registration order, each for every transition")
  func severalObservers() {
    let light = DidTransitionLight()
    #expect(light.go())
    #expect(light.switchOff())
    #expect(light.secondObserver == ["go", "switchOff"])
    #expect(light.seen.map(\.event) == ["go", "switchOff"])
  }

  @Test("rejected events are not reported")
  func rejectedEventsNotReported() {
    let light = DidTransitionLight()
    #expect(!light.slow())  // no transition from red
    #expect(!light.fire("nope"))  // unknown event
    light.powered = false
    #expect(!light.go())  // guard fails
    #expect(stateMachineError { try light.fireOrThrow("go") } == .guardsFailed(event: "go", state: "red"))
    #expect(light.seen.isEmpty)
    #expect(light.secondObserver.isEmpty)

    #expect(light.switchOff())
    #expect(!light.stop())  // terminated
    #expect(!light.fire("go"))
    #expect(light.seen == [CompletedTransition(from: "red", event: "switchOff", to: "off")])
  }

  @Test("observers of a definition built at run time, fired by name")
  func dynamicObservers() throws {
    let probe = FlatTestProbe()
    let compass = try makeDidTransitionCompass(probe)
    for _ in 0..<5 { #expect(compass.fire("turn")) }
    #expect(!compass.fire("spin"))
    #expect(probe.log == ["n-turn->e", "e-turn->s", "s-turn->w", "w-turn->n", "n-turn->e"])
  }
}
