import Testing

@testable import StateMachines

// Cancelled timeouts (Semantics "a cancelled timeout holds no memory"): each cancelled timeout used
// to keep a sleeping task (~740 bytes) until its deadline. Timeouts are now entries in one
// scheduler per clock, removed when cancelled. (The process's memory is measured by the
// benchmark; this test checks what the scheduler holds.)

/// A continuous clock of its own, so that this test's scheduler is not shared with other tests.
struct PrivateContinuousClock: Clock {
  typealias Duration = Swift.Duration
  typealias Instant = ContinuousClock.Instant
  var now: Instant { ContinuousClock.now }
  var minimumResolution: Duration { ContinuousClock().minimumResolution }
  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
  }
}

/// Locks itself an hour after it was closed.
@StateMachine
final class HourLockDoor: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<HourLockDoor> { sm in
    sm.clock = PrivateContinuousClock()
    sm.addState("opened")
    sm.addState("closed")
    sm.addState("locked")
    sm.when("close", transitionFrom: "opened", to: "closed")
    sm.when("open", transitionFrom: "closed", to: "opened")
    sm.when("lock", transitionFrom: "closed", to: "locked", after: .seconds(3600))
  }
}

@Suite("Timeout memory", .serialized, .timeLimit(.minutes(1)))
struct TimeoutMemoryTests {
  @Test("100k objects entering and leaving a 1-hour timeout state leave no timeout armed")
  func cancelledTimeoutsAreFreed() {
    let scheduler = HourLockDoor.stateMachine.compiled.scheduler
    let doors = (0..<100_000).map { _ in HourLockDoor() }
    for door in doors { door.close() }
    #expect(scheduler.armedTimeoutCount == 100_000)
    for door in doors { door.open() }
    #expect(scheduler.armedTimeoutCount == 0)
    #expect(doors.allSatisfy { $0.isOpened })
  }

  @Test("objects that go away cancel their timeouts")
  func deallocationCancels() {
    let scheduler = HourLockDoor.stateMachine.compiled.scheduler
    let before = scheduler.armedTimeoutCount
    do {
      let doors = (0..<1_000).map { _ in HourLockDoor() }
      for door in doors { door.close() }
      #expect(scheduler.armedTimeoutCount >= before + 1_000)
    }
    #expect(scheduler.armedTimeoutCount <= before)
  }
}
