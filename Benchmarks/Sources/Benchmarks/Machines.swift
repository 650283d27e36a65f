import Foundation
import StateMachines

/// The Subscription machine of Examples/Subscription/main.swift, unchanged: `suspend` has an
/// `after` callback (so it takes the full step) and `unsuspend` has none (the fast path).
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

/// Subscription with its callback as an entry action of `suspended` instead of an `after`
/// callback of `suspend` (rows d1e): the same work, through the step that runs entry actions.
@StateMachine
final class EntryActionSubscription {
  private(set) var billingStopped = false
  func stopBilling() { billingStopped = true }

  static let stateMachine = StateMachineDefinition<EntryActionSubscription> { sm in
    sm.initialState = "pendingActivation"
    sm.addState("pendingActivation")
    sm.addState("active")
    sm.addState("suspended")
    sm.addState("terminated")
    sm.when("activate", transitionFrom: "pendingActivation", to: "active")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.when("terminate", transitionFrom: ["active", "suspended"], to: "terminated")
    sm.onEntry("suspended") { $0.stopBilling() }
  }
}

/// The same states and transitions without any callback: every transition is a fast-path one.
@StateMachine
final class PlainSubscription {
  static let stateMachine = StateMachineDefinition<PlainSubscription> { sm in
    sm.initialState = "pendingActivation"
    sm.addState("pendingActivation")
    sm.addState("active")
    sm.addState("suspended")
    sm.addState("terminated")
    sm.when("activate", transitionFrom: "pendingActivation", to: "active")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.when("terminate", transitionFrom: ["active", "suspended"], to: "terminated")
  }
}

/// `suspend` and `unsuspend` each have one `before` and one `after` callback, so every measured
/// event runs exactly two callbacks through the full step.
@StateMachine
final class CallbackSubscription {
  private(set) var beforeCount = 0
  private(set) var afterCount = 0

  static let stateMachine = StateMachineDefinition<CallbackSubscription> { sm in
    sm.initialState = "pendingActivation"
    sm.addState("pendingActivation")
    sm.addState("active")
    sm.addState("suspended")
    sm.when("activate", transitionFrom: "pendingActivation", to: "active")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.before("suspend") { $0.beforeCount &+= 1 }
    sm.after("suspend") { $0.afterCount &+= 1 }
    sm.before("unsuspend") { $0.beforeCount &+= 1 }
    sm.after("unsuspend") { $0.afterCount &+= 1 }
  }
}

/// `suspend` and `unsuspend` are guarded by `paid`, which is always true: every measured event
/// evaluates one passing guard and runs no other code.
@StateMachine
final class GuardedSubscription {
  var paid = true

  static let stateMachine = StateMachineDefinition<GuardedSubscription> { sm in
    sm.initialState = "pendingActivation"
    sm.addState("pendingActivation")
    sm.addState("active")
    sm.addState("suspended")
    sm.when("activate", transitionFrom: "pendingActivation", to: "active")
    sm.when("suspend", transitionFrom: "active", to: "suspended").guarded { $0.paid }
    sm.when("unsuspend", transitionFrom: "suspended", to: "active").guarded { $0.paid }
  }
}

/// Subscription as a `Sendable` class: the same cycle through the machine's lock.
@StateMachine
final class SendableSubscription: @unchecked Sendable {
  private(set) var billingStopped = false
  func stopBilling() { billingStopped = true }

  static let stateMachine = StateMachineDefinition<SendableSubscription> { sm in
    sm.addState("active")
    sm.addState("suspended")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.after("suspend") { $0.stopBilling() }
  }
}

/// The plain machine as a `Sendable` class: the fast path through the lock.
@StateMachine
final class SendablePlainSubscription: Sendable {
  static let stateMachine = StateMachineDefinition<SendablePlainSubscription> { sm in
    sm.addState("active")
    sm.addState("suspended")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
  }
}

/// Row 7's callbacks in the form that takes the `Transition`: the full step, with the same
/// number of callbacks as the light path of row 7.
@StateMachine
final class FullStepSubscription {
  private(set) var beforeCount = 0
  private(set) var afterCount = 0

  static let stateMachine = StateMachineDefinition<FullStepSubscription> { sm in
    sm.addState("active")
    sm.addState("suspended")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.before("suspend") { subscription, _ in subscription.beforeCount &+= 1 }
    sm.after("suspend") { subscription, _ in subscription.afterCount &+= 1 }
    sm.before("unsuspend") { subscription, _ in subscription.beforeCount &+= 1 }
    sm.after("unsuspend") { subscription, _ in subscription.afterCount &+= 1 }
  }
}

/// Row 9's machine with actions that take the `Transition`: the full step (row 9f), which row 9
/// measured until plain exit and entry actions joined the light tier.
@StateMachine
final class TransitionEntryExitSubscription {
  private(set) var entries = 0
  private(set) var exits = 0

  static let stateMachine = StateMachineDefinition<TransitionEntryExitSubscription> { sm in
    sm.addState("active")
    sm.addState("suspended")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    for state in ["active", "suspended"] {
      sm.onEntry(state) { model, _ in model.entries &+= 1 }
      sm.onExit(state) { model, _ in model.exits &+= 1 }
    }
  }
}

/// Entry and exit actions on both states: every event runs an exit and an entry action.
@StateMachine
final class EntryExitSubscription {
  private(set) var entries = 0
  private(set) var exits = 0

  static let stateMachine = StateMachineDefinition<EntryExitSubscription> { sm in
    sm.addState("active")
    sm.addState("suspended")
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    for state in ["active", "suspended"] {
      sm.onEntry(state) { $0.entries &+= 1 }
      sm.onExit(state) { $0.exits &+= 1 }
    }
  }
}
