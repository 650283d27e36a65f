import Foundation
import StateMachines
import Testing

/// A trigger queued while the machine is busy (Semantics §Run to completion): a notification
/// posted inside a step is armed in the state it was posted in, and is dropped when it is
/// dequeued if that state was left meanwhile, even though it was current when it was queued.
@Suite("Stale queued triggers")
struct StaleQueuedTriggerTests {
  /// `enter` (start → a); in `a`, the notification `ping` takes a → c; `ping` is also declared
  /// from `c` to `d`. `after("enter")` fires `go` (a → c, queued) and posts `ping` (armed in `a`,
  /// queued behind `go`).
  static func machine(center: NotificationCenter, note: Notification.Name) throws -> DynamicStateMachine {
    try DynamicStateMachine(validating: { sm in
      sm.notificationCenter = center
      sm.addState("start")
      sm.addState("a")
      sm.addState("c")
      sm.addState("d")
      sm.when("enter", transitionFrom: "start", to: "a")
      sm.when("go", transitionFrom: "a", to: "c")
      sm.when("ping", transitionFrom: "a", to: "c", onNotification: note)
      sm.when("ping", transitionFrom: "c", to: "d")
      sm.after("enter") { machine in
        machine.fire("go")
        center.post(name: note, object: nil)
      }
    })
  }

  @Test("a notification queued in a state that the run then leaves is dropped when dequeued")
  func staleNotificationIsDropped() throws {
    let center = NotificationCenter()
    let note = Notification.Name("StaleQueuedTriggerTests.ping")
    let machine = try Self.machine(center: center, note: note)
    #expect(machine.fire("enter"))
    #expect(machine.state == "c")
    // Posted again in `c`: no observer is armed there, nothing happens.
    center.post(name: note, object: nil)
    #expect(machine.state == "c")
    // The event itself still works from `c`.
    #expect(machine.fire("ping"))
    #expect(machine.state == "d")
  }

  @Test("a notification queued in a state that is still active when dequeued fires")
  func currentNotificationFires() throws {
    let center = NotificationCenter()
    let note = Notification.Name("StaleQueuedTriggerTests.current")
    let machine = try DynamicStateMachine(validating: { sm in
      sm.notificationCenter = center
      sm.addState("start")
      sm.addState("a")
      sm.addState("c")
      sm.when("enter", transitionFrom: "start", to: "a")
      sm.when("ping", transitionFrom: "a", to: "c", onNotification: note)
      sm.after("enter") { _ in center.post(name: note, object: nil) }
    })
    #expect(machine.fire("enter"))
    #expect(machine.state == "c")
  }
}
