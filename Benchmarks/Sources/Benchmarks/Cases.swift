import Baselines
import StateMachines

// One function per measured case. Each runs `events` events on a fresh object and returns how
// many of them gave the expected result, which the harness checks and folds into a checksum, so
// the optimiser cannot drop the work.

/// (1) Generated methods on Subscription: activate, then suspend/unsuspend/suspend/…
@inline(never)
func generatedCycle(_ events: Int) -> Int {
  let subscription = Subscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return subscription.billingStopped ? expected : 0
}

/// (1b) Generated methods on the machine without callbacks: the fast path only.
@inline(never)
func generatedPlainCycle(_ events: Int) -> Int {
  let subscription = PlainSubscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return expected
}

/// (2) `fire(_:)` by name on Subscription.
@inline(never)
func stringCycle(_ events: Int) -> Int {
  let subscription = Subscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.fire("suspend") { expected &+= 1 }
    if subscription.fire("unsuspend") { expected &+= 1 }
  }
  return subscription.billingStopped ? expected : 0
}

/// (3) A rejected event: `activate()` while active. Two events per iteration, like the cycles of
/// rows 1, 1b and 5, so that the loop's own cost per event is the same as theirs.
@inline(never)
func rejectedEvent(_ events: Int) -> Int {
  let subscription = Subscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if !subscription.activate() { expected &+= 1 }
    if !subscription.activate() { expected &+= 1 }
  }
  return expected
}

/// (4) `canSuspend` on an active Subscription (its `suspend` has a callback).
@inline(never)
func canSuspendQuery(_ events: Int) -> Int {
  let subscription = Subscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events {
    if subscription.canSuspend { expected &+= 1 }
  }
  return expected
}

/// (4b) `canSuspend` on the machine without callbacks: answered from the fast-path table.
@inline(never)
func canSuspendPlainQuery(_ events: Int) -> Int {
  let subscription = PlainSubscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events {
    if subscription.canSuspend { expected &+= 1 }
  }
  return expected
}

/// (5) Baseline: the hand-written enum + switch, same cycle.
@inline(never)
func handWrittenCycle(_ events: Int) -> Int {
  let subscription = HandWrittenSubscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return subscription.billingStopped ? expected : 0
}

/// (5b) Baseline: the hand-written `canSuspend`.
@inline(never)
func handWrittenCanSuspend(_ events: Int) -> Int {
  let subscription = HandWrittenSubscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events {
    if subscription.canSuspend { expected &+= 1 }
  }
  return subscription.canSuspendQueries == events ? expected : 0
}

/// (6) Baseline: the string-keyed dictionary machine, same cycle.
@inline(never)
func dictionaryCycle(_ events: Int) -> Int {
  let subscription = DictionarySubscription()
  _ = subscription.fire("activate")
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.fire("suspend") { expected &+= 1 }
    if subscription.fire("unsuspend") { expected &+= 1 }
  }
  return subscription.billingStopped ? expected : 0
}

/// (7) Accepted events that each run one `before` and one `after` callback.
@inline(never)
func callbackCycle(_ events: Int) -> Int {
  let subscription = CallbackSubscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  let callbacksRan = subscription.beforeCount == events / 2 * 2 && subscription.afterCount == events / 2 * 2
  return callbacksRan ? expected : 0
}

/// (8) Accepted events with a passing guard (`if: { $0.paid }`).
@inline(never)
func guardedCycle(_ events: Int) -> Int {
  let subscription = GuardedSubscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return expected
}

/// (5l) Baseline: the lean enum + switch of another module, calling the same `stopBilling` through
/// a closure after `suspend`.
@inline(never)
func leanEnumCycle(_ events: Int) -> Int {
  let subscription = Subscription()
  let lean = LeanEnumSubscription(afterSuspend: { subscription.stopBilling() })
  var expected = 0
  for _ in 0..<events / 2 {
    if lean.suspend() { expected &+= 1 }
    if lean.unsuspend() { expected &+= 1 }
  }
  return subscription.billingStopped ? expected : 0
}

/// (1s) Row 1 on a `Sendable` class: the same cycle through the lock.
@inline(never)
func sendableCycle(_ events: Int) -> Int {
  let subscription = SendableSubscription()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return subscription.billingStopped ? expected : 0
}

/// (1bs) Row 1b on a `Sendable` class: the fast path through the lock.
@inline(never)
func sendablePlainCycle(_ events: Int) -> Int {
  let subscription = SendablePlainSubscription()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return expected
}

/// (7f) Row 7 with callbacks that take the `Transition`: the full step.
@inline(never)
func fullStepCycle(_ events: Int) -> Int {
  let subscription = FullStepSubscription()
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  let callbacksRan = subscription.beforeCount == events / 2 * 2 && subscription.afterCount == events / 2 * 2
  return callbacksRan ? expected : 0
}

/// (9) Accepted events that run an exit and an entry action (the full step).
@inline(never)
func entryExitCycle(_ events: Int) -> Int {
  let subscription = EntryExitSubscription()
  _ = subscription.isActive
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return subscription.exits == events / 2 * 2 ? expected : 0
}

/// (9f) Row 9 with actions that take the `Transition`: the full step.
@inline(never)
func transitionEntryExitCycle(_ events: Int) -> Int {
  let subscription = TransitionEntryExitSubscription()
  _ = subscription.isActive
  var expected = 0
  for _ in 0..<events / 2 {
    if subscription.suspend() { expected &+= 1 }
    if subscription.unsuspend() { expected &+= 1 }
  }
  return subscription.exits == events / 2 * 2 ? expected : 0
}

/// (1c) Row 1 with each event method called from a function that is not inlined, as from an app's
/// event handler: the generated method's read of the class's IDs static (a lazily initialised
/// `static let`, `swift_once` on Linux) happens on every event, where row 1's loop hoists it.
@inline(never)
func calledCycle(_ events: Int) -> Int {
  let subscription = Subscription()
  _ = subscription.activate()
  var expected = 0
  for _ in 0..<events / 2 {
    if callSuspend(subscription) { expected &+= 1 }
    if callUnsuspend(subscription) { expected &+= 1 }
  }
  return subscription.billingStopped ? expected : 0
}

/// `suspend()` out of line, for row 1c.
@inline(never)
func callSuspend(_ subscription: Subscription) -> Bool { subscription.suspend() }

/// `unsuspend()` out of line, for row 1c.
@inline(never)
func callUnsuspend(_ subscription: Subscription) -> Bool { subscription.unsuspend() }
