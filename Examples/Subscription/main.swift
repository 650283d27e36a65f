import Foundation
import StateMachines

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

let s = Subscription()
print(s.state, s.activate(), s.state, s.isActive, s.canSuspend, s.activate(), s.state)
print(s.suspend(), s.billingStopped, s.terminate(), s.terminatedAt as Any, s.state)
