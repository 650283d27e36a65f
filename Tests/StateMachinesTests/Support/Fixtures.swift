import Foundation
import StateMachines
import Testing

/// The LSStateMachine README's model, with the same definition as Examples/Subscription/main.swift.
@StateMachine
final class Subscription {
  var terminatedAt: Date?
  private(set) var billingStopped = false
  func stopBilling() { billingStopped = true }

  static let stateMachine = StateMachineDefinition<Subscription> { sm in
    sm.initialState = "pendingActivation"
    sm.addState("pendingActivation")
    sm.addState("active")
    sm.addState("suspended")
    sm.addState("terminated")
    sm.when("activate", transitionFrom: "pendingActivation", to: "active")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.when("terminate", transitionFrom: ["active", "suspended"], to: "terminated")
    sm.before("terminate") { $0.terminatedAt = Date(timeIntervalSince1970: 123_123_123) }
    sm.after("suspend") { $0.stopBilling() }
  }
}

/// The Subscription machine with two `before` and two `after` callbacks per event, each writing
/// one line to ``log``: which callback ran, the event, and the state the object was in then.
@StateMachine
final class RecordingSubscription {
  /// `"<callback> <event> in <state>"`, in the order the callbacks ran.
  var log: [String] = []

  func record(_ callback: String, _ transition: Transition) {
    log.append("\(callback) \(transition.event) in \(state)")
  }

  static let stateMachine = StateMachineDefinition<RecordingSubscription> { sm in
    sm.initialState = "pendingActivation"
    sm.addState("pendingActivation")
    sm.addState("active")
    sm.addState("suspended")
    sm.addState("terminated")
    sm.when("activate", transitionFrom: "pendingActivation", to: "active")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.when("terminate", transitionFrom: ["active", "suspended"], to: "terminated")
    for event in ["activate", "suspend", "unsuspend", "terminate"] {
      sm.before(event) { model, transition in model.record("before#1", transition) }
      sm.before(event) { model, transition in model.record("before#2", transition) }
      sm.after(event) { model, transition in model.record("after#1", transition) }
      sm.after(event) { model, transition in model.record("after#2", transition) }
    }
  }
}

/// The states and events of the Subscription machine, in declaration order.
enum SubscriptionMachine {
  static let states = ["pendingActivation", "active", "suspended", "terminated"]
  static let events = ["activate", "suspend", "unsuspend", "terminate"]

  /// The valid transitions: from-state, event, target.
  static let transitions: [(from: String, event: String, to: String)] = [
    ("pendingActivation", "activate", "active"),
    ("active", "suspend", "suspended"),
    ("suspended", "unsuspend", "active"),
    ("active", "terminate", "terminated"),
    ("suspended", "terminate", "terminated"),
  ]

  /// Whether `event` has a transition from `state`.
  static func isValid(_ event: String, from state: String) -> Bool {
    transitions.contains { $0.from == state && $0.event == event }
  }

  /// Events that lead from the initial state to `state` through generated event methods.
  static func path(to state: String) -> [String] {
    switch state {
    case "pendingActivation": return []
    case "active": return ["activate"]
    case "suspended": return ["activate", "suspend"]
    case "terminated": return ["activate", "terminate"]
    default: return []
    }
  }
}

extension Subscription {
  /// Drives a new subscription to `state` through generated event methods, failing the test if
  /// a step is rejected.
  static func made(in state: String) -> Subscription {
    let subscription = Subscription()
    for event in SubscriptionMachine.path(to: state) {
      let accepted: Bool
      switch event {
      case "activate": accepted = subscription.activate()
      case "suspend": accepted = subscription.suspend()
      case "terminate": accepted = subscription.terminate()
      default: accepted = false
      }
      if !accepted { Issue.record("fixture: \(event) was rejected on the way to \(state)") }
    }
    return subscription
  }

  /// The generated `is<State>` query for `state`.
  func generatedIs(_ state: String) -> Bool? {
    switch state {
    case "pendingActivation": return isPendingActivation
    case "active": return isActive
    case "suspended": return isSuspended
    case "terminated": return isTerminated
    default: return nil
    }
  }

  /// The generated `can<Event>` query for `event`.
  func generatedCan(_ event: String) -> Bool? {
    switch event {
    case "activate": return canActivate
    case "suspend": return canSuspend
    case "unsuspend": return canUnsuspend
    case "terminate": return canTerminate
    default: return nil
    }
  }

  /// Calls the generated event method for `event`.
  func generatedFire(_ event: String) -> Bool? {
    switch event {
    case "activate": return activate()
    case "suspend": return suspend()
    case "unsuspend": return unsuspend()
    case "terminate": return terminate()
    default: return nil
    }
  }
}

/// ``StateMachineError`` as an `Equatable` value, so tests can compare errors with `==`.
enum StateMachineErrorCase: Equatable {
  case unknownEvent(String)
  case noTransition(event: String, state: String)
  case guardsFailed(event: String, state: String)
  case terminated(event: String, state: String)
  case unknownState(String)
  case invalidDefinition(DefinitionError)
  case callbackFailed(event: String, transitionHappened: Bool)
  case foreignID
  case busy(String)
  case runToCompletionLimit(event: String, steps: Int)
  case eventlessLoop(event: String, microsteps: Int)
  case illegalConfiguration(String)
  case storeManaged(event: String)

  init(_ error: StateMachineError) {
    switch error {
    case .unknownEvent(let event): self = .unknownEvent(event)
    case .noTransition(let event, let state): self = .noTransition(event: event, state: state)
    case .guardsFailed(let event, let state): self = .guardsFailed(event: event, state: state)
    case .terminated(let event, let state): self = .terminated(event: event, state: state)
    case .unknownState(let state): self = .unknownState(state)
    case .invalidDefinition(let error): self = .invalidDefinition(error)
    case .callbackFailed(let event, let happened, _):
      self = .callbackFailed(event: event, transitionHappened: happened)
    case .foreignID: self = .foreignID
    case .busy(let operation): self = .busy(operation)
    case .runToCompletionLimit(let event, let steps): self = .runToCompletionLimit(event: event, steps: steps)
    case .eventlessLoop(let event, let microsteps): self = .eventlessLoop(event: event, microsteps: microsteps)
    case .illegalConfiguration(let state, _): self = .illegalConfiguration(state)
    case .storeManaged(let event): self = .storeManaged(event: event)
    }
  }
}

/// The ``StateMachineError`` `body` throws, or `nil` if it returns normally. Another error fails
/// the test.
func stateMachineError(_ body: () throws -> Void) -> StateMachineErrorCase? {
  do {
    try body()
    return nil
  } catch let error as StateMachineError {
    return StateMachineErrorCase(error)
  } catch {
    Issue.record("expected a StateMachineError, got \(error)")
    return nil
  }
}

/// The ``DefinitionError`` `body` throws, or `nil` if it returns normally. Another error fails the
/// test.
func definitionError(_ body: () throws -> Void) -> DefinitionError? {
  do {
    try body()
    return nil
  } catch let error as DefinitionError {
    return error
  } catch {
    Issue.record("expected a DefinitionError, got \(error)")
    return nil
  }
}
