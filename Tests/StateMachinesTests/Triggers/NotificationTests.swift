import Foundation
import Testing

@testable import StateMachines

extension Notification.Name {
  static let notificationTestsBackground = Notification.Name("StateMachinesTests.background")
  static let notificationTestsReleased = Notification.Name("StateMachinesTests.released")
  static let notificationTestsNap = Notification.Name("StateMachinesTests.nap")
  static let notificationTestsNestedNap = Notification.Name("StateMachinesTests.nestedNap")
  static let notificationTestsDusk = Notification.Name("StateMachinesTests.dusk")
}

/// `nap` is one event with two source states, both observing the same notification: `awake`
/// naps to `dozing`, `dozing` naps to `asleep`. One post must move the machine one step, and
/// leaving a state must remove its observer (a stale or doubled one would be counted).
@StateMachine
final class NappingApp: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<NappingApp> { sm in
    sm.addState("awake")
    sm.addState("dozing")
    sm.addState("asleep")
    sm.when("nap", transitionFrom: "awake", to: "dozing", onNotification: .notificationTestsNap)
    sm.when("nap", transitionFrom: "dozing", to: "asleep", onNotification: .notificationTestsNap)
    sm.when("wake", transitionFrom: "asleep", to: "awake")
    sm.when("stir", transitionFrom: "dozing", to: "awake")
  }
}

/// The statechart kind (S18): `day` observes `dusk` while any of its children is active; `nap`
/// has two sources, `work` (to its sibling `lunch`) and `lunch` (out of `day`, to `night`).
@StateMachine
final class NestedNappingApp: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<NestedNappingApp> { sm in
    sm.addState("day") { day in
      day.addState("work")
      day.addState("lunch")
    }
    sm.addState("night")
    sm.when("nap", transitionFrom: "work", to: "lunch", onNotification: .notificationTestsNestedNap)
    sm.when("nap", transitionFrom: "lunch", to: "night", onNotification: .notificationTestsNestedNap)
    sm.when("dusk", transitionFrom: "day", to: "night", onNotification: .notificationTestsDusk)
    sm.when("back", transitionFrom: "lunch", to: "work")
    sm.when("dawn", transitionFrom: "night", to: "day")
  }
}

@StateMachine
final class NotifiedApp: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<NotifiedApp> { sm in
    sm.addState("awake")
    sm.addState("inBackground")
    sm.when("enterBackground", transitionFrom: "awake", to: "inBackground", onNotification: .notificationTestsBackground)
    sm.when("wake", transitionFrom: "inBackground", to: "awake")
  }
}

@StateMachine
final class ReleasedNotifiedApp: @unchecked Sendable {
  /// Its own center, so that no other test posts to it.
  static let center = NotificationCenter()

  static let stateMachine = StateMachineDefinition<ReleasedNotifiedApp> { sm in
    sm.notificationCenter = ReleasedNotifiedApp.center
    sm.addState("awake")
    sm.addState("asleep")
    sm.when("sleep", transitionFrom: "awake", to: "asleep", onNotification: .notificationTestsReleased)
  }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct NotificationTests {
  @Test func notificationFiresTheEventOnlyWhileInTheState() throws {
    let app = NotifiedApp()
    // Not started: the initial state's observer is not armed yet.
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isAwake)

    try app.startStateMachine()
    #expect(Triggers.armedNotificationCount(NotifiedApp.stateMachine, of: app) == 1)
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isInBackground)

    // Left "awake": its observer is gone, a second post changes nothing.
    #expect(Triggers.armedNotificationCount(NotifiedApp.stateMachine, of: app) == 0)
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isInBackground)

    // Entered again by a transition: armed again, once.
    #expect(app.wake())
    #expect(Triggers.armedNotificationCount(NotifiedApp.stateMachine, of: app) == 1)
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isInBackground)
  }

  @Test func aStatechartKeepsItsParentsObserverAndSwapsItsChildrensOnce() throws {
    let app = NestedNappingApp()
    let machine = NestedNappingApp.stateMachine
    let center = NotificationCenter.default
    try app.startStateMachine()
    #expect(app.state == "day/work")
    // day's dusk and work's nap.
    #expect(Triggers.armedNotificationCount(machine, of: app) == 2)

    // A child transition: day's observer stays, work's goes, lunch's comes; one post, one step.
    center.post(name: .notificationTestsNestedNap, object: nil)
    #expect(app.state == "day/lunch")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 2)
    #expect(app.back())
    #expect(app.state == "day/work")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 2)

    // Out of day by nap's second source: nothing is left armed, and a post changes nothing.
    center.post(name: .notificationTestsNestedNap, object: nil)
    center.post(name: .notificationTestsNestedNap, object: nil)
    #expect(app.state == "night")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 0)
    center.post(name: .notificationTestsDusk, object: nil)
    #expect(app.state == "night")

    // Re-entered: day and work armed once each; the parent's notification leaves from a child.
    #expect(app.dawn())
    #expect(app.state == "day/work")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 2)
    center.post(name: .notificationTestsDusk, object: nil)
    #expect(app.state == "night")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 0)
  }

  @Test func anObserverDoesNotKeepTheObjectAliveAndIsRemovedWithIt() throws {
    let center = ReleasedNotifiedApp.center
    var app: ReleasedNotifiedApp? = ReleasedNotifiedApp()
    try app?.startStateMachine()
    #expect(app.map { Triggers.armedNotificationCount(ReleasedNotifiedApp.stateMachine, of: $0) } == 1)
    // The extras hold the observer's token and remove it from the center when they go
    // (`StateMachineExtras.deinit`, the same `disarm()` that leaving a state runs).
    weak let extras = app?._$stateMachineStorage.extras
    #expect(extras?.observations.count == 1)
    #expect(extras?.observations.first?.center === center)
    weak let weakApp = app
    app = nil
    #expect(weakApp == nil)
    #expect(extras == nil)
    // Posting after the object went away must not crash nor resurrect anything.
    center.post(name: .notificationTestsReleased, object: nil)
    #expect(weakApp == nil)
  }

  @Test func leavingAStateRemovesItsObserverAndReenteringArmsItOnce() throws {
    let app = NappingApp()
    let machine = NappingApp.stateMachine
    #expect(Triggers.armedNotificationCount(machine, of: app) == 0)
    try app.startStateMachine()
    #expect(Triggers.armedNotificationCount(machine, of: app) == 1)

    // One post, one step: awake's observer went with awake, dozing armed its own.
    NotificationCenter.default.post(name: .notificationTestsNap, object: nil)
    #expect(app.state == "dozing")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 1)

    // Back to awake by another event: dozing's observer is removed, awake's armed once.
    #expect(app.stir())
    #expect(app.state == "awake")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 1)
    NotificationCenter.default.post(name: .notificationTestsNap, object: nil)
    #expect(app.state == "dozing")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 1)

    // asleep observes nothing: no observer is left behind.
    NotificationCenter.default.post(name: .notificationTestsNap, object: nil)
    #expect(app.state == "asleep")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 0)
    NotificationCenter.default.post(name: .notificationTestsNap, object: nil)
    #expect(app.state == "asleep")

    // Re-entered through a transition, then fired by name rather than by the notification.
    #expect(app.wake())
    #expect(Triggers.armedNotificationCount(machine, of: app) == 1)
    #expect(app.nap())
    #expect(app.nap())
    #expect(app.state == "asleep")
    #expect(Triggers.armedNotificationCount(machine, of: app) == 0)
  }
}
