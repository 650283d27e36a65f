// Rows d1, d5l and d1e: the loop an app has, events arriving as data (an array made before the
// rows run, so that no row counts its making) and dispatched through a `switch` to the machine's
// methods, rather than two calls written one after the other, which lets the optimiser hoist
// work out of the loop. Each row writes its loop out for its own machine: one generic loop over
// a protocol of the two methods measured 73 instructions per event for d1 instead of 43.5 (the
// generated methods were called through their witnesses, not inlined).

import Baselines
import StateMachines

/// An event as an app receives it.
enum SubscriptionEvent: UInt8 {
  case suspend, unsuspend
}

/// The events of the rows, made by ``prepareSubscriptionEvents(_:)`` before any row runs.
nonisolated(unsafe) private var preparedEvents: [SubscriptionEvent] = []

/// Makes `count` events alternating suspend and unsuspend, for the rows to read.
func prepareSubscriptionEvents(_ count: Int) {
  preparedEvents = (0..<count).map { $0 & 1 == 0 ? .suspend : .unsuspend }
}

/// The first `count` prepared events (made again if fewer were prepared), out of line so that the
/// loops below cannot see their pattern.
@inline(never)
func subscriptionEvents(_ count: Int) -> ArraySlice<SubscriptionEvent> {
  if preparedEvents.count < count { prepareSubscriptionEvents(count) }
  return preparedEvents[..<count]
}

/// (d1) Row 1's machine and generated methods, events as data.
@inline(never)
func dataCycle(_ events: Int) -> Int {
  let stream = subscriptionEvents(events)
  let subscription = Subscription()
  _ = subscription.activate()
  var expected = 0
  for event in stream {
    switch event {
    case .suspend: if subscription.suspend() { expected &+= 1 }
    case .unsuspend: if subscription.unsuspend() { expected &+= 1 }
    }
  }
  return subscription.billingStopped ? expected : 0
}

/// (d5l) Row 5l's lean enum of another module, events as data through the same `switch`.
@inline(never)
func dataLeanEnumCycle(_ events: Int) -> Int {
  let stream = subscriptionEvents(events)
  let subscription = Subscription()
  let lean = LeanEnumSubscription(afterSuspend: { subscription.stopBilling() })
  var expected = 0
  for event in stream {
    switch event {
    case .suspend: if lean.suspend() { expected &+= 1 }
    case .unsuspend: if lean.unsuspend() { expected &+= 1 }
    }
  }
  return subscription.billingStopped ? expected : 0
}

/// (d1e) Row d1 with the callback as an entry action of `suspended`.
@inline(never)
func dataEntryActionCycle(_ events: Int) -> Int {
  let stream = subscriptionEvents(events)
  let subscription = EntryActionSubscription()
  _ = subscription.activate()
  var expected = 0
  for event in stream {
    switch event {
    case .suspend: if subscription.suspend() { expected &+= 1 }
    case .unsuspend: if subscription.unsuspend() { expected &+= 1 }
    }
  }
  return subscription.billingStopped ? expected : 0
}
