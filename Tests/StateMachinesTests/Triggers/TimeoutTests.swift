import Foundation
import Testing

@testable import StateMachines

/// A door that locks itself 5 s after it was closed. One clock per test class, and the suite runs
/// its tests one at a time: a shared clock would let one test advance another's timers.
@StateMachine
final class TimeoutDoor: @unchecked Sendable {
  static let clock = ManualClock()
  static let stateMachine = StateMachineDefinition<TimeoutDoor> { sm in
    sm.clock = TimeoutDoor.clock
    sm.addState("opened")
    sm.addState("closed")
    sm.addState("locked")
    sm.when("close", transitionFrom: "opened", to: "closed")
    sm.when("open", transitionFrom: "closed", to: "opened")
    sm.when("lock", transitionFrom: "closed", to: "locked", after: .seconds(5))
  }
}

@StateMachine
final class CancelledTimeoutDoor: @unchecked Sendable {
  static let clock = ManualClock()
  static let stateMachine = StateMachineDefinition<CancelledTimeoutDoor> { sm in
    sm.clock = CancelledTimeoutDoor.clock
    sm.addState("opened")
    sm.addState("closed")
    sm.addState("locked")
    sm.when("close", transitionFrom: "opened", to: "closed")
    sm.when("open", transitionFrom: "closed", to: "opened")
    sm.when("lock", transitionFrom: "closed", to: "locked", after: .seconds(5))
  }
}

@StateMachine
final class StartedTimeoutLamp: @unchecked Sendable {
  static let clock = ManualClock()
  static let stateMachine = StateMachineDefinition<StartedTimeoutLamp> { sm in
    sm.clock = StartedTimeoutLamp.clock
    sm.addState("on")
    sm.addState("off")
    sm.when("switchOff", transitionFrom: "on", to: "off", after: .seconds(60))
  }
}

@MainActor
@StateMachine
final class MainActorTimeoutScreen {
  static let clock = ManualClock()
  var log: [String] = []
  static let stateMachine = StateMachineDefinition<MainActorTimeoutScreen> { sm in
    sm.clock = MainActorTimeoutScreen.clock
    sm.addState("visible")
    sm.addState("dimmed")
    sm.when("dim", transitionFrom: "visible", to: "dimmed", after: .seconds(30))
    sm.onEntry("dimmed") { $0.log.append("dimmed") }
  }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct TimeoutTests {
  @Test func timeoutFiresLikeAnEventWhenTheClockReachesIt() async {
    let door = TimeoutDoor()
    #expect(door.close())
    #expect(Triggers.armedTimeoutCount(TimeoutDoor.stateMachine, of: door) == 1)
    await TimeoutDoor.clock.advance(by: .seconds(4))
    #expect(door.isClosed)
    await TimeoutDoor.clock.advance(by: .seconds(1))
    #expect(door.isLocked)
    #expect(Triggers.armedTimeoutCount(TimeoutDoor.stateMachine, of: door) == 0)
  }

  @Test func leavingTheStateCancelsItsTimeout() async {
    let door = CancelledTimeoutDoor()
    door.close()
    #expect(CancelledTimeoutDoor.clock.armedTimeoutCount == 1)
    #expect(door.open())
    // Cancelling removes the timeout from the clock at once.
    #expect(CancelledTimeoutDoor.clock.armedTimeoutCount == 0)
    await CancelledTimeoutDoor.clock.advance(by: .seconds(10))
    #expect(door.isOpened)

    // Entering again arms a new timer that counts from the new entry.
    door.close()
    #expect(Triggers.armedTimeoutCount(CancelledTimeoutDoor.stateMachine, of: door) == 1)
    await CancelledTimeoutDoor.clock.advance(by: .seconds(4))
    #expect(door.isClosed)
    await CancelledTimeoutDoor.clock.advance(by: .seconds(1))
    #expect(door.isLocked)
  }

  @Test func theEventOfATimeoutCanAlsoBeFiredByName() {
    let door = TimeoutDoor()
    door.close()
    #expect(door.lock())
    #expect(door.isLocked)
  }

  @Test func startArmsTheInitialStatesTimeout() async throws {
    let lamp = StartedTimeoutLamp()
    #expect(Triggers.armedTimeoutCount(StartedTimeoutLamp.stateMachine, of: lamp) == 0)
    try lamp.startStateMachine()
    #expect(Triggers.armedTimeoutCount(StartedTimeoutLamp.stateMachine, of: lamp) == 1)
    await StartedTimeoutLamp.clock.advance(by: .seconds(60))
    #expect(lamp.isOff)
  }

  @Test func anArmedTimerDoesNotKeepTheObjectAlive() async {
    let clock = TimeoutDoor.clock
    let armedBefore = clock.armedTimeoutCount
    var door: TimeoutDoor? = TimeoutDoor()
    door?.close()
    #expect(clock.armedTimeoutCount == armedBefore + 1)
    weak let weakDoor = door
    door = nil
    #expect(weakDoor == nil)
    // The object's deinit cancelled its timeout: the clock holds it no more.
    #expect(clock.armedTimeoutCount == armedBefore)
    await clock.advance(by: .seconds(5))
    #expect(weakDoor == nil)
  }

  @MainActor
  @Test func mainActorObjectGetsItsTimeoutOnTheMainActor() async {
    let screen = MainActorTimeoutScreen()
    try? screen.startStateMachine()
    #expect(Triggers.armedTimeoutCount(MainActorTimeoutScreen.stateMachine, of: screen) == 1)
    await MainActorTimeoutScreen.clock.advance(by: .seconds(30))
    #expect(screen.isDimmed)
    #expect(screen.log == ["dimmed"])
  }
}
