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

// The scenario from the README, one step per line: what was called, and what it gave.

/// Prints one step, the call on the left and its result on the right.
func show(_ call: String, _ result: Any) {
  let padded = call.padding(toLength: 32, withPad: " ", startingAt: 0)
  print("\(padded) → \(result)")
}

let subscription = Subscription()
show("state", subscription.state)

show("activate()", subscription.activate())
show("state", subscription.state)
show("isActive", subscription.isActive)
show("canSuspend", subscription.canSuspend)

show("activate() again", subscription.activate())
show("state (unchanged)", subscription.state)

show("suspend()", subscription.suspend())
show("state", subscription.state)
show("billingStopped (after-callback)", subscription.billingStopped)

show("fire(\"unsuspend\")", subscription.fire("unsuspend"))
show("state", subscription.state)

do {
  try subscription.fireOrThrow("activate")
  show("try fireOrThrow(\"activate\")", "no error")
} catch {
  // The throwing API is typed: `error` is a StateMachineError, here `.noTransition`.
  show("try fireOrThrow(\"activate\")", "threw \(type(of: error)): \(error)")
}
show("availableEvents", subscription.availableEvents)

show("terminatedAt", subscription.terminatedAt.map { "\($0)" } ?? "nil")
show("terminate()", subscription.terminate())
show("terminatedAt (before-callback)", subscription.terminatedAt.map { "\($0)" } ?? "nil")
show("state", subscription.state)
show("availableEvents", subscription.availableEvents)

// Tests generated from the machine: paths that take every transition, each replayed on a fresh
// object and checked after every step, and what they covered.
print("\nGenerated tests:")
let paths = try StateMachinePaths(Subscription.stateMachine)
let coverage = StateMachineCoverage(paths)
for path in paths.transitionCover().paths {
  try await path.replay(on: { Subscription() }, coverage: coverage)
  print("  ✓ \(path)")
}
print(coverage.report)
