import Foundation
import StateMachines
import Testing

// The string-keyed API every machine object gets from `StateMachineObject`.

@Suite("Dynamic API")
struct DynamicAPITests {
  // MARK: fire

  @Test("fire(\"activate\") takes the transition like activate()")
  func fireByName() {
    let subscription = Subscription()
    #expect(subscription.fire("activate"))
    #expect(subscription.state == "active")
    #expect(subscription.fire("suspend"))
    #expect(subscription.billingStopped)
    #expect(subscription.fire("terminate"))
    #expect(subscription.terminatedAt == Date(timeIntervalSince1970: 123_123_123))
    #expect(subscription.state == "terminated")
  }

  @Test("fire returns false for a rejected or unknown event and changes nothing")
  func fireRejected() {
    let subscription = Subscription()
    #expect(!subscription.fire("suspend"))
    #expect(!subscription.fire("nope"))
    #expect(!subscription.fire(""))
    #expect(subscription.state == "pendingActivation")
  }

  // MARK: fireOrThrow

  @Test("fireOrThrow returns normally for a valid event")
  func fireOrThrowAccepts() {
    let subscription = Subscription()
    #expect(stateMachineError { try subscription.fireOrThrow("activate") } == nil)
    #expect(subscription.state == "active")
  }

  @Test("fireOrThrow of an unknown event throws unknownEvent")
  func fireOrThrowUnknownEvent() {
    let subscription = Subscription()
    let error = stateMachineError { try subscription.fireOrThrow("nope") }
    #expect(error == .unknownEvent("nope"))
    #expect(subscription.state == "pendingActivation")
  }

  @Test("fireOrThrow of an event without a transition from the current state throws noTransition")
  func fireOrThrowNoTransition() {
    let subscription = Subscription()
    let error = stateMachineError { try subscription.fireOrThrow("suspend") }
    #expect(error == .noTransition(event: "suspend", state: "pendingActivation"))
    #expect(subscription.state == "pendingActivation")
    #expect(!subscription.billingStopped)

    #expect(subscription.activate())
    let again = stateMachineError { try subscription.fireOrThrow("activate") }
    #expect(again == .noTransition(event: "activate", state: "active"))
  }

  @Test("after entering a final state, every event throws terminated")
  func fireOrThrowTerminated() {
    let ticket = FinalStateTicket()
    #expect(!ticket.isStateMachineTerminated)
    #expect(FinalStateTicket.stateMachine.finalStates == ["closed"])
    #expect(ticket.close())
    #expect(ticket.state == "closed")
    #expect(ticket.isStateMachineTerminated)
    // `reopen` has a transition from `closed`, but the machine has terminated.
    let error = stateMachineError { try ticket.fireOrThrow("reopen") }
    #expect(error == .terminated(event: "reopen", state: "closed"))
    #expect(!ticket.reopen())
    #expect(!ticket.canReopen)
    #expect(!ticket.can("reopen"))
    #expect(ticket.availableEvents.isEmpty)
    #expect(ticket.state == "closed")
    #expect(ticket.reopenCount == 0)
  }

  @Test("fireOrThrow and restoreState throw the typed StateMachineError, with a readable description")
  func typedThrows() {
    let subscription = Subscription()
    do throws(StateMachineError) {
      try subscription.fireOrThrow("suspend")
      Issue.record("suspend from pendingActivation did not throw")
    } catch {
      #expect(StateMachineErrorCase(error) == .noTransition(event: "suspend", state: "pendingActivation"))
      #expect(error.description.contains("suspend"))
      #expect(error.description.contains("pendingActivation"))
    }
    do throws(StateMachineError) {
      try subscription.restoreState("nope")
      Issue.record("restoring 'nope' did not throw")
    } catch {
      #expect(StateMachineErrorCase(error) == .unknownState("nope"))
      #expect(error.description.contains("nope"))
    }
  }

  // MARK: Queries

  @Test("can(\"x\") answers like the generated can<X>")
  func canByName() {
    let subscription = Subscription()
    #expect(subscription.can("activate"))
    #expect(!subscription.can("suspend"))
    #expect(!subscription.can("nope"))
    #expect(subscription.activate())
    #expect(!subscription.can("activate"))
    #expect(subscription.can("suspend"))
    #expect(subscription.can("terminate"))
  }

  @Test(
    "availableEvents lists the events with a transition now, in declaration order",
    arguments: [
      ("pendingActivation", ["activate"]), ("active", ["suspend", "terminate"]),
      ("suspended", ["unsuspend", "terminate"]), ("terminated", []),
    ])
  func availableEvents(in state: String, expected: [String]) throws {
    let subscription = Subscription.made(in: state)
    try #require(subscription.state == state)
    #expect(subscription.availableEvents == expected)
  }

  @Test("the definition lists states and events in declaration order")
  func definitionListsStatesAndEvents() {
    let subscription = Subscription()
    let definition = subscription.stateMachineDefinition
    #expect(definition === Subscription.stateMachine)
    #expect(definition.states == ["pendingActivation", "active", "suspended", "terminated"])
    #expect(definition.events == ["activate", "suspend", "unsuspend", "terminate"])
    #expect(definition.initialState == "pendingActivation")
    #expect(definition.finalStates.isEmpty)
    #expect(definition.definitionError == nil)
  }

  @Test("isInState(\"x\") answers like the generated is<X>")
  func isInStateByName() {
    let subscription = Subscription()
    #expect(subscription.isInState("pendingActivation"))
    #expect(!subscription.isInState("active"))
    #expect(!subscription.isInState("nope"))
  }

  // MARK: restoreState

  @Test("restoreState puts the machine into a state without running callbacks")
  func restoreStateWorks() throws {
    let subscription = Subscription()
    try subscription.restoreState("suspended")
    #expect(subscription.state == "suspended")
    #expect(subscription.isSuspended)
    #expect(subscription.canUnsuspend)
    #expect(!subscription.billingStopped)  // the after(suspend) callback did not run
    try subscription.restoreState("active")
    #expect(subscription.state == "active")
    #expect(subscription.suspend())
    #expect(subscription.billingStopped)
  }

  @Test("restoreState of a string that is not a state throws unknownState and changes nothing")
  func restoreUnknownState() throws {
    let subscription = Subscription()
    try subscription.restoreState("active")
    let error = stateMachineError { try subscription.restoreState("nope") }
    #expect(error == .unknownState("nope"))
    #expect(subscription.state == "active")
    #expect(subscription.isActive)
    let empty = stateMachineError { try subscription.restoreState("") }
    #expect(empty == .unknownState(""))
    #expect(subscription.state == "active")
  }

  @Test("restoring a final state terminates the machine; restoring another state revives it")
  func restoreFinalState() throws {
    let ticket = FinalStateTicket()
    try ticket.restoreState("closed")
    #expect(ticket.isStateMachineTerminated)
    #expect(!ticket.reopen())
    try ticket.restoreState("open")
    #expect(!ticket.isStateMachineTerminated)
    #expect(ticket.close())
  }

  // MARK: Payload

  @Test("the payload of activate(with:) reaches a (Model, Transition) callback")
  func generatedPayload() {
    let order = PayloadOrder()
    #expect(order.pay(with: "card-42"))
    #expect(order.beforePayload == "card-42")
    #expect(order.afterPayload == "card-42")
    #expect(order.afterTransition == "pay: unpaid -> paid")
  }

  @Test("fire(_:payload:) passes the payload; without one the callback gets nil")
  func dynamicPayload() {
    let order = PayloadOrder()
    #expect(order.fire("pay", payload: "cash"))
    #expect(order.afterPayload == "cash")
    #expect(order.refund())
    #expect(order.fire("pay"))
    #expect(order.afterPayload == nil)
  }

  @Test("a payload of another type reads as nil through payload(as:)")
  func payloadOfAnotherType() {
    let order = PayloadOrder()
    #expect(order.pay(with: 42))
    #expect(order.afterPayload == nil)
    #expect(order.rawPayloadWasInt)
  }
}

// MARK: - Models

/// A machine with a final state that `reopen` could leave if the machine had not terminated.
@StateMachine
final class FinalStateTicket {
  var reopenCount = 0

  static let stateMachine = StateMachineDefinition<FinalStateTicket> { sm in
    sm.addState("open")
    sm.addFinalState("closed")
    sm.when("close", transitionFrom: "open", to: "closed")
    sm.when("reopen", transitionFrom: "closed", to: "open")
    sm.before("reopen") { $0.reopenCount += 1 }
  }
}

/// Records the payload its callbacks receive.
@StateMachine
final class PayloadOrder {
  var beforePayload: String?
  var afterPayload: String?
  var afterTransition = ""
  var rawPayloadWasInt = false

  static let stateMachine = StateMachineDefinition<PayloadOrder> { sm in
    sm.addState("unpaid")
    sm.addState("paid")
    sm.when("pay", transitionFrom: "unpaid", to: "paid")
    sm.when("refund", transitionFrom: "paid", to: "unpaid")
    sm.before("pay") { model, transition in model.beforePayload = transition.payload(as: String.self) }
    sm.after("pay") { model, transition in
      model.afterPayload = transition.payload(as: String.self)
      model.afterTransition = "\(transition.event): \(transition.from) -> \(transition.to)"
      model.rawPayloadWasInt = transition.payload is Int
    }
  }
}
