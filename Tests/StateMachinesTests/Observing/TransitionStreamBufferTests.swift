import StateMachines
import Testing

// The transition stream's buffer: `stateTransitions` buffered every transition while no one read.
// The default stream now keeps the newest 1,024; `stateTransitions(bufferingPolicy:)` chooses
// another policy. The elements carry the event's payload.

@StateMachine
final class CountingToggle {
  static let stateMachine = StateMachineDefinition<CountingToggle> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("toggle", transitionFrom: "off", to: "on")
    sm.when("toggle", transitionFrom: "on", to: "off")
  }
}

@Suite("Transition stream buffering", .timeLimit(.minutes(1)))
struct TransitionStreamBufferTests {
  @Test("an unread default stream keeps the newest 1,024 transitions")
  func defaultKeepsNewest() async {
    let toggle = CountingToggle()
    let stream = toggle.stateTransitions
    for index in 1...3_000 { toggle.toggle(with: index) }
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first?.payload(as: Int.self) == 3_000 - 1_024 + 1)
  }

  @Test("a chosen policy applies: the oldest two")
  func chosenPolicy() async {
    let toggle = CountingToggle()
    let stream = toggle.stateTransitions(bufferingPolicy: .bufferingOldest(2))
    for index in 1...10 { toggle.toggle(with: index) }
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.payload(as: Int.self) == 1)
    #expect(await iterator.next()?.payload(as: Int.self) == 2)
    toggle.toggle(with: 11)
    #expect(await iterator.next()?.payload(as: Int.self) == 11)
  }

  @Test("a transition without payload has none")
  func noPayload() async {
    let toggle = CountingToggle()
    let stream = toggle.stateTransitions
    toggle.toggle()
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first == CompletedTransition(from: "off", event: "toggle", to: "on"))
    #expect(first?.payload == nil)
  }
}
