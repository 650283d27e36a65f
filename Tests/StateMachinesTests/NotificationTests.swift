import Foundation
import Testing

@testable import StateMachines

extension Notification.Name {
  static let notificationTestsBackground = Notification.Name("StateMachinesTests.background")
  static let notificationTestsReleased = Notification.Name("StateMachinesTests.released")
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
  static let stateMachine = StateMachineDefinition<ReleasedNotifiedApp> { sm in
    sm.addState("awake")
    sm.addState("asleep")
    sm.when("sleep", transitionFrom: "awake", to: "asleep", onNotification: .notificationTestsReleased)
  }
}

@Suite(.serialized) struct NotificationTests {
  @Test func notificationFiresTheEventOnlyWhileInTheState() throws {
    let app = NotifiedApp()
    // Not started: the initial state's observer is not armed yet.
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isAwake)

    try app.startStateMachine()
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isInBackground)

    // Left "awake": its observer is gone, a second post changes nothing.
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isInBackground)

    // Entered again by a transition: armed again.
    #expect(app.wake())
    NotificationCenter.default.post(name: .notificationTestsBackground, object: nil)
    #expect(app.isInBackground)
  }

  @Test func anObserverDoesNotKeepTheObjectAliveAndIsRemovedWithIt() throws {
    var app: ReleasedNotifiedApp? = ReleasedNotifiedApp()
    try app?.startStateMachine()
    weak let weakApp = app
    app = nil
    #expect(weakApp == nil)
    // Posting after the object went away must not crash nor resurrect anything.
    NotificationCenter.default.post(name: .notificationTestsReleased, object: nil)
    #expect(weakApp == nil)
  }
}
