import StateMachines
import Testing

// Event payloads (Hierarchy S14): the value given to `activate(with:)` or
// `fire("activate", payload:)` reaches the guard, the action, the exit and entry actions, the
// before and after callbacks and the observers, through `Transition.payload(as:)`.

/// A plan, the payload of `activate`.
struct PayloadPlan: Equatable {
  let name: String
  let seats: Int
}

/// Every callback of `activate` records what it saw: its kind, the event, the states and the
/// payload's plan name (`-` if there is none or it is not a ``PayloadPlan``).
@StateMachine
final class PayloadSubscription {
  var log: [String] = []

  func record(_ kind: String, _ transition: Transition) {
    let plan = transition.payload(as: PayloadPlan.self)?.name ?? "-"
    log.append("\(kind) \(transition.event) \(transition.from)->\(transition.to) \(plan)")
  }

  static let stateMachine = StateMachineDefinition<PayloadSubscription> { sm in
    sm.addState("pending")
    sm.addState("active")
    sm.when("activate", transitionFrom: "pending", to: "active").guarded { subscription, transition in
      subscription.record("guard", transition)
      return (transition.payload(as: PayloadPlan.self)?.seats ?? 1) > 0
    }.action { subscription, transition in subscription.record("action", transition) }
    sm.when("rename", transitionFrom: "active", to: "active", internal: true)
    sm.before("activate") { subscription, transition in subscription.record("before", transition) }
    sm.onExit("pending") { subscription, transition in subscription.record("exit", transition) }
    sm.onEntry("active") { subscription, transition in subscription.record("entry", transition) }
    sm.after("activate") { subscription, transition in subscription.record("after", transition) }
    sm.after("rename") { subscription, transition in
      subscription.log.append("after rename \(transition.payload(as: String.self) ?? "-")")
    }
    sm.didTransition { subscription, transition in subscription.record("observer", transition) }
  }
}

/// Names from arrays, as a definition loaded at run time has them.
private let payloadNames = (states: ["draft", "sent"], event: "send")

/// A letter built at run time: `send` needs a `String` payload; every callback logs it.
private func makePayloadLetter(_ probe: FlatTestProbe) throws(DefinitionError) -> DynamicStateMachine {
  func text(_ transition: Transition) -> String { transition.payload(as: String.self) ?? "-" }
  return try DynamicStateMachine(validating: { sm in
    for state in payloadNames.states { sm.addState(state) }
    sm.when(payloadNames.event, transitionFrom: payloadNames.states[0], to: payloadNames.states[1])
      .guarded { _, transition in transition.payload(as: String.self) != nil }
      .action { _, transition in probe.log.append("action \(text(transition))") }
    sm.before(payloadNames.event) { _, transition in probe.log.append("before \(text(transition))") }
    sm.onExit(payloadNames.states[0]) { _, transition in probe.log.append("exit \(text(transition))") }
    sm.onEntry(payloadNames.states[1]) { _, transition in probe.log.append("entry \(text(transition))") }
    sm.after(payloadNames.event) { _, transition in probe.log.append("after \(text(transition))") }
    sm.didTransition { _, transition in probe.log.append("observer \(text(transition))") }
  })
}

@Suite("Payloads")
struct PayloadTests {
  private let plan = PayloadPlan(name: "gold", seats: 5)

  private let expectedGold = [
    "guard activate pending->active gold",
    "before activate pending->active gold",
    "exit activate pending->active gold",
    "action activate pending->active gold",
    "entry activate pending->active gold",
    "after activate pending->active gold",
    "observer activate pending->active gold",
  ]

  @Test("the generated activate(with:) hands the payload to every callback, with the names")
  func generatedMethodPayload() {
    let subscription = PayloadSubscription()
    #expect(subscription.activate(with: plan))
    #expect(subscription.state == "active")
    #expect(subscription.log == expectedGold)
  }

  @Test("fire(_:payload:) hands the payload to every callback")
  func fireByNamePayload() {
    let subscription = PayloadSubscription()
    #expect(subscription.fire("activate", payload: plan))
    #expect(subscription.log == expectedGold)
  }

  @Test("fireOrThrow(_:payload:) hands the payload to every callback")
  func fireOrThrowPayload() {
    let subscription = PayloadSubscription()
    #expect(stateMachineError { try subscription.fireOrThrow("activate", payload: plan) } == nil)
    #expect(subscription.log == expectedGold)
  }

  @Test("without a payload, or with one of another type, payload(as:) is nil")
  func missingOrMistypedPayload() {
    let none = PayloadSubscription()
    #expect(none.activate())
    #expect(none.log.count == 7)
    #expect(none.log.allSatisfy { $0.hasSuffix("pending->active -") })

    let mistyped = PayloadSubscription()
    #expect(mistyped.activate(with: "gold"))
    #expect(mistyped.log.count == 7)
    #expect(mistyped.log.allSatisfy { $0.hasSuffix("pending->active -") })
  }

  @Test("the guard decides on the payload; a rejected payload runs nothing else")
  func guardRejectsPayload() {
    let subscription = PayloadSubscription()
    #expect(!subscription.activate(with: PayloadPlan(name: "empty", seats: 0)))
    #expect(subscription.state == "pending")
    #expect(subscription.log == ["guard activate pending->active empty"])
    #expect(
      stateMachineError { try subscription.fireOrThrow("activate", payload: PayloadPlan(name: "empty", seats: 0)) }
        == .guardsFailed(event: "activate", state: "pending"))
  }

  @Test("each event gets its own payload")
  func payloadPerEvent() {
    let subscription = PayloadSubscription()
    #expect(subscription.activate(with: plan))
    subscription.log = []
    #expect(subscription.rename(with: "platinum"))
    #expect(subscription.rename())
    #expect(
      subscription.log == [
        "after rename platinum", "observer rename active->active -",
        "after rename -", "observer rename active->active -",
      ])
  }

  @Test("payloads in a definition built at run time, fired by name")
  func dynamicPayload() throws {
    let probe = FlatTestProbe()
    let letter = try makePayloadLetter(probe)
    #expect(!letter.fire("send"))
    let error = stateMachineError { try letter.fireOrThrow("send", payload: 42) }
    #expect(error == .guardsFailed(event: "send", state: "draft"))
    #expect(probe.log.isEmpty)
    #expect(letter.fire("send", payload: "hello"))
    #expect(letter.isInState("sent"))
    #expect(
      probe.log == ["before hello", "exit hello", "action hello", "entry hello", "after hello", "observer hello"])
  }
}
