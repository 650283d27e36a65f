import Foundation
import StateMachines
import Testing

// LSStateMachine's own specs, ported to the Subscription model of its README (Fixtures.swift).

/// One valid transition of the Subscription machine, as a test argument.
struct SubscriptionTransition: Sendable, CustomStringConvertible {
  let from: String
  let event: String
  let to: String

  var description: String { "\(from) --\(event)--> \(to)" }

  static let all = SubscriptionMachine.transitions.map { SubscriptionTransition(from: $0.from, event: $0.event, to: $0.to) }
}

/// Every (state, event) pair of the Subscription machine that has no transition.
private let invalidPairs: [(String, String)] = SubscriptionMachine.states.flatMap { state in
  SubscriptionMachine.events.filter { !SubscriptionMachine.isValid($0, from: state) }.map { (state, $0) }
}

private let terminatedAtDate = Date(timeIntervalSince1970: 123_123_123)

@Suite("LSStateMachine specs")
struct LSStateMachineSpecTests {
  // MARK: Initial state

  @Test("a new object is in the camelCase initial state")
  func initialStateIsPendingActivation() {
    let subscription = Subscription()
    #expect(subscription.state == "pendingActivation")
    #expect(subscription.isPendingActivation)
    #expect(Subscription.stateMachine.initialState == "pendingActivation")
    #expect(subscription.terminatedAt == nil)
    #expect(!subscription.billingStopped)
  }

  // MARK: Transitions

  @Test("a valid event returns true and lands in its target", arguments: SubscriptionTransition.all)
  func validTransition(_ transition: SubscriptionTransition) throws {
    let subscription = Subscription.made(in: transition.from)
    try #require(subscription.state == transition.from)
    #expect(subscription.generatedFire(transition.event) == true)
    #expect(subscription.state == transition.to)
    #expect(subscription.generatedIs(transition.to) == true)
  }

  @Test("the README scenario: activate, suspend, unsuspend, terminate")
  func readmeScenario() {
    let subscription = Subscription()
    #expect(subscription.activate())
    #expect(subscription.state == "active")
    #expect(subscription.suspend())
    #expect(subscription.state == "suspended")
    #expect(subscription.billingStopped)
    #expect(subscription.unsuspend())
    #expect(subscription.state == "active")
    #expect(subscription.terminate())
    #expect(subscription.state == "terminated")
    #expect(subscription.terminatedAt == terminatedAtDate)
  }

  @Test("terminate is valid from active and from suspended", arguments: ["active", "suspended"])
  func terminateFromBothStates(from state: String) {
    let subscription = Subscription.made(in: state)
    #expect(subscription.canTerminate)
    #expect(subscription.terminate())
    #expect(subscription.state == "terminated")
    #expect(subscription.isTerminated)
  }

  @Test("an invalid event returns false and changes nothing", arguments: invalidPairs)
  func invalidEvent(in state: String, event: String) throws {
    let subscription = Subscription.made(in: state)
    try #require(subscription.state == state)
    let terminatedAt = subscription.terminatedAt
    let billingStopped = subscription.billingStopped
    #expect(subscription.generatedFire(event) == false)
    #expect(subscription.fire(event) == false)
    #expect(subscription.state == state)
    #expect(subscription.generatedIs(state) == true)
    #expect(subscription.terminatedAt == terminatedAt)
    #expect(subscription.billingStopped == billingStopped)
  }

  @Test("activate twice: the second returns false, the state stays active")
  func activateTwice() {
    let subscription = Subscription()
    #expect(subscription.activate())
    #expect(!subscription.activate())
    #expect(subscription.state == "active")
  }

  // MARK: Queries

  @Test(
    "is<State> is true only for the current state",
    arguments: SubscriptionMachine.states, SubscriptionMachine.states)
  func isQuery(current: String, queried: String) throws {
    let subscription = Subscription.made(in: current)
    try #require(subscription.state == current)
    #expect(subscription.generatedIs(queried) == (queried == current))
    #expect(subscription.isInState(queried) == (queried == current))
  }

  @Test(
    "can<Event> is true only for events with a transition from the current state",
    arguments: SubscriptionMachine.states, SubscriptionMachine.events)
  func canQuery(state: String, event: String) throws {
    let subscription = Subscription.made(in: state)
    try #require(subscription.state == state)
    let terminatedAt = subscription.terminatedAt
    let billingStopped = subscription.billingStopped
    let expected = SubscriptionMachine.isValid(event, from: state)
    #expect(subscription.generatedCan(event) == expected)
    #expect(subscription.can(event) == expected)
    // Asking runs no callback and changes nothing.
    #expect(subscription.state == state)
    #expect(subscription.terminatedAt == terminatedAt)
    #expect(subscription.billingStopped == billingStopped)
  }

  // MARK: Callbacks

  @Test("the before callback of terminate runs from both from-states", arguments: ["active", "suspended"])
  func beforeTerminateRuns(from state: String) throws {
    let subscription = Subscription()
    try subscription.restoreState(state)
    #expect(subscription.terminatedAt == nil)
    #expect(subscription.terminate())
    #expect(subscription.terminatedAt == terminatedAtDate)
  }

  @Test("the before callback of terminate runs for no other event")
  func beforeTerminateOnlyForTerminate() throws {
    let subscription = Subscription()
    #expect(!subscription.terminate())  // rejected: no callback
    #expect(subscription.terminatedAt == nil)
    #expect(subscription.activate())
    #expect(subscription.terminatedAt == nil)
    #expect(subscription.suspend())
    #expect(subscription.terminatedAt == nil)
    #expect(subscription.unsuspend())
    #expect(subscription.terminatedAt == nil)
    #expect(subscription.terminate())
    #expect(subscription.terminatedAt == terminatedAtDate)
  }

  @Test("the after callback of suspend runs after suspend")
  func afterSuspendRuns() {
    let subscription = Subscription.made(in: "active")
    #expect(!subscription.billingStopped)
    #expect(subscription.suspend())
    #expect(subscription.billingStopped)
  }

  @Test(
    "the after callback of suspend runs for no other event",
    arguments: [("pendingActivation", "activate"), ("suspended", "unsuspend"), ("active", "terminate"),
      ("suspended", "terminate"), ("pendingActivation", "suspend")])
  func afterSuspendOnlyForSuspend(from state: String, event: String) throws {
    let subscription = Subscription()
    try subscription.restoreState(state)  // runs no callback
    _ = subscription.generatedFire(event)
    #expect(!subscription.billingStopped)
  }

  @Test("several callbacks of one event run in registration order; before sees the old state, after the new")
  func callbacksInRegistrationOrder() {
    let subscription = RecordingSubscription()
    #expect(subscription.activate())
    #expect(
      subscription.log == [
        "before#1 activate in pendingActivation", "before#2 activate in pendingActivation",
        "after#1 activate in active", "after#2 activate in active",
      ])
    subscription.log = []
    #expect(subscription.suspend())
    #expect(subscription.terminate())
    #expect(
      subscription.log == [
        "before#1 suspend in active", "before#2 suspend in active",
        "after#1 suspend in suspended", "after#2 suspend in suspended",
        "before#1 terminate in suspended", "before#2 terminate in suspended",
        "after#1 terminate in terminated", "after#2 terminate in terminated",
      ])
  }

  @Test("a rejected event runs no callback")
  func rejectedEventRunsNoCallback() {
    let subscription = RecordingSubscription()
    #expect(!subscription.suspend())
    #expect(!subscription.fire("terminate"))
    #expect(subscription.log.isEmpty)
  }

  @Test("before callbacks see the transition's from-state, after callbacks its to-state")
  func callbacksSeeOldAndNewState() {
    let probe = StateProbe()
    #expect(probe.start())
    #expect(probe.seen == ["before: state running? false, from idle to running", "after: state running? true, from idle to running"])
  }

  // MARK: Definition

  @Test("without initialState, the first state added is the initial state")
  func initialStateDefaultsToFirstAdded() {
    #expect(FirstStateIsInitial.stateMachine.initialState == "draft")
    let post = FirstStateIsInitial()
    #expect(post.state == "draft")
    #expect(post.isDraft)
    #expect(!post.isPublished)
    #expect(post.publish())
    #expect(post.isPublished)
  }

  @Test("an initial state that was never added is added")
  func undeclaredInitialStateIsAdded() {
    let definition = UndeclaredInitialState.stateMachine
    #expect(definition.definitionError == nil)
    #expect(definition.states == ["ready", "idle"])
    #expect(definition.initialState == "idle")
    let machine = UndeclaredInitialState()
    #expect(machine.state == "idle")
    #expect(machine.isIdle)
    #expect(machine.prepare())
    #expect(machine.isReady)
  }

  @Test("declaring a state or a transition twice is harmless")
  func duplicatesAreHarmless() {
    let definition = DuplicateDeclarations.stateMachine
    #expect(definition.definitionError == nil)
    #expect(definition.states == ["a", "b"])
    #expect(definition.events == ["go", "back"])
    let machine = DuplicateDeclarations()
    #expect(machine.availableEvents == ["go"])
    #expect(machine.go())
    #expect(machine.state == "b")
    #expect(machine.afterGoCount == 1)
    #expect(!machine.go())
    #expect(machine.afterGoCount == 1)
    #expect(machine.availableEvents == ["back"])
    #expect(machine.back())
    #expect(machine.state == "a")
  }

  @Test("a callback registered before its event's transition still runs")
  func dslOrderDoesNotMatter() {
    let parcel = CallbacksDeclaredFirst()
    #expect(parcel.ship())
    #expect(parcel.log == ["before ship in packed", "after ship in shipped"])
  }
}

// MARK: - Models

/// Records the state it is in and the transition each callback receives.
@StateMachine
final class StateProbe {
  var seen: [String] = []

  static let stateMachine = StateMachineDefinition<StateProbe> { sm in
    sm.addState("idle")
    sm.addState("running")
    sm.when("start", transitionFrom: "idle", to: "running")
    sm.before("start") { model, transition in
      model.seen.append("before: state running? \(model.isRunning), from \(transition.from) to \(transition.to)")
    }
    sm.after("start") { model, transition in
      model.seen.append("after: state running? \(model.isRunning), from \(transition.from) to \(transition.to)")
    }
  }
}

/// No `initialState`: the first state added is the initial one.
@StateMachine
final class FirstStateIsInitial {
  static let stateMachine = StateMachineDefinition<FirstStateIsInitial> { sm in
    sm.addState("draft")
    sm.addState("published")
    sm.when("publish", transitionFrom: "draft", to: "published")
  }
}

/// `initialState` names a state that `addState` never added, after another state was added.
@StateMachine
final class UndeclaredInitialState {
  static let stateMachine = StateMachineDefinition<UndeclaredInitialState> { sm in
    sm.addState("ready")
    sm.initialState = "idle"
    sm.when("prepare", transitionFrom: "idle", to: "ready")
  }
}

/// Every state and transition declared twice.
@StateMachine
final class DuplicateDeclarations {
  var afterGoCount = 0

  static let stateMachine = StateMachineDefinition<DuplicateDeclarations> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.addState("a")
    sm.addState("b")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.when("back", transitionFrom: "b", to: "a")
    sm.when("back", transitionFrom: "b", to: "a")
    sm.after("go") { $0.afterGoCount += 1 }
  }
}

/// Callbacks registered before the transition of their event (LSStateMachine dropped them).
@StateMachine
final class CallbacksDeclaredFirst {
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<CallbacksDeclaredFirst> { sm in
    sm.before("ship") { $0.log.append("before ship in \($0.state)") }
    sm.after("ship") { $0.log.append("after ship in \($0.state)") }
    sm.addState("packed")
    sm.addState("shipped")
    sm.when("ship", transitionFrom: "packed", to: "shipped")
  }
}
