import Foundation
import Testing

@testable import StateMachines

/// A door that locks itself 5 s after it was closed. One clock per test class, because tests run
/// in parallel and a shared clock would let one test advance another's timers.
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

@Suite struct TimeoutTests {
  @Test func timeoutFiresLikeAnEventWhenTheClockReachesIt() async {
    let door = TimeoutDoor()
    #expect(door.close())
    let timers = TimeoutDoor.stateMachine.armedTimers(of: door)
    #expect(timers.count == 1)
    TimeoutDoor.clock.advance(by: .seconds(4))
    #expect(door.isClosed)
    TimeoutDoor.clock.advance(by: .seconds(1))
    for timer in timers { await timer.value }
    #expect(door.isLocked)
    #expect(TimeoutDoor.stateMachine.armedTimers(of: door).isEmpty)
  }

  @Test func leavingTheStateCancelsItsTimeout() async {
    let door = CancelledTimeoutDoor()
    door.close()
    let timers = CancelledTimeoutDoor.stateMachine.armedTimers(of: door)
    #expect(door.open())
    CancelledTimeoutDoor.clock.advance(by: .seconds(10))
    for timer in timers { await timer.value }
    #expect(door.isOpened)

    // Entering again arms a new timer that counts from the new entry.
    door.close()
    let again = CancelledTimeoutDoor.stateMachine.armedTimers(of: door)
    #expect(again.count == 1)
    CancelledTimeoutDoor.clock.advance(by: .seconds(5))
    for timer in again { await timer.value }
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
    #expect(StartedTimeoutLamp.stateMachine.armedTimers(of: lamp).isEmpty)
    try lamp.startStateMachine()
    let timers = StartedTimeoutLamp.stateMachine.armedTimers(of: lamp)
    #expect(timers.count == 1)
    StartedTimeoutLamp.clock.advance(by: .seconds(60))
    for timer in timers { await timer.value }
    #expect(lamp.isOff)
  }

  @Test func anArmedTimerDoesNotKeepTheObjectAlive() async {
    var door: TimeoutDoor? = TimeoutDoor()
    door?.close()
    let timers = TimeoutDoor.stateMachine.armedTimers(of: door!)
    weak let weakDoor = door
    door = nil
    #expect(weakDoor == nil)
    // The object's deinit cancelled its timer: the task ends without firing.
    for timer in timers {
      await timer.value
      #expect(timer.isCancelled)
    }
  }

  @MainActor
  @Test func mainActorObjectGetsItsTimeoutOnTheMainActor() async {
    let screen = MainActorTimeoutScreen()
    try? screen.startStateMachine()
    let timers = MainActorTimeoutScreen.stateMachine.armedTimers(of: screen)
    #expect(timers.count == 1)
    MainActorTimeoutScreen.clock.advance(by: .seconds(30))
    for timer in timers { await timer.value }
    #expect(screen.isDimmed)
    #expect(screen.log == ["dimmed"])
  }
}
