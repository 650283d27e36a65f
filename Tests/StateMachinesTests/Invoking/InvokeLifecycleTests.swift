import Foundation
import Testing

@testable import StateMachines

/// A user profile that fetches its user while `loading` (Invoke A.3), on the main actor.
@MainActor
@StateMachine
final class InvokeProfile {
  static let clock = ManualClock()
  let gates = InvocationGates()
  /// What happened, per object (tests of other suites drive profiles concurrently).
  let recorder = TestRecorder()
  var userID = "42"
  var user: String?
  var failure: (any Error)?
  var entries = 0
  static let stateMachine = StateMachineDefinition<InvokeProfile> { sm in
    sm.clock = InvokeProfile.clock
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.addState("failed")
    sm.when("load", transitionFrom: ["idle", "failed", "ready"], to: "loading")
    sm.when("cancel", transitionFrom: "loading", to: "idle")
    sm.when("reload", transitionFrom: "loading", to: "loading")
    sm.when("tick", transitionFrom: "loading", to: "loading", internal: true)
    sm.onEntry("loading") { profile in
      profile.entries += 1
      profile.recorder.append("entry")
    }
    sm.invoke("fetchUser", in: "loading", input: { profile, _ in
      profile.recorder.append("input")
      return ProfileFetch(userID: profile.userID, gates: profile.gates, recorder: profile.recorder)
    }) { context in
      let userID = context.input.userID
      context.input.recorder.append("work \(userID)#\(context.generation)")
      await context.input.gates.wait(context.generation)
      if userID == "bad" { throw ProfileFetchError.notFound }
      return "user \(userID)"
    }
    sm.whenInvokeDone("fetchUser", transitionTo: "ready").action { profile, transition in
      profile.user = transition.payload(as: String.self)
    }
    sm.whenInvokeFailed("fetchUser", transitionTo: "failed").action { profile, transition in
      profile.failure = transition.payload as? any Error
    }
  }
}

enum ProfileFetchError: Error, Equatable { case notFound }

/// What the profile's work needs: the only values it gets from the model (I3).
struct ProfileFetch: Sendable {
  let userID: String
  let gates: InvocationGates
  let recorder: TestRecorder
}

@MainActor
@Suite(.serialized, .timeLimit(.minutes(1)))
struct InvokeLifecycleTests {

  @Test("I2, I3: the work starts after the entry action and the input, when the step has ended")
  func startsAfterEntryAndInput() async {
    let profile = InvokeProfile()
    #expect(profile.fire("load"))
    // The step has ended: entry, then input; the task runs on its own.
    #expect(Array(profile.recorder.lines.prefix(2)) == ["entry", "input"])
    #expect(profile.activeInvocations.map(\.id) == ["fetchUser"])
    let generation = profile.activeInvocations[0].generation
    await eventually { profile.recorder.lines.count == 3 }
    #expect(profile.recorder.lines == ["entry", "input", "work 42#\(generation)"])
    #expect(profile.state == "loading")
    profile.gates.open(generation)
    await profile.waitForInvocations()
    // I6: the output is the done event's payload, typed.
    #expect(profile.state == "ready")
    #expect(profile.user == "user 42")
    #expect(profile.activeInvocations.isEmpty)
    #expect(profile.invocationStatistics == InvocationStatistics(started: 1, finished: 1, delivered: 1, dropped: 0))
  }

  @Test("I6: a throwing work takes the error transition with the error as payload")
  func failureTakesErrorTransition() async {
    let profile = InvokeProfile()
    profile.userID = "bad"
    #expect(profile.fire("load"))
    profile.gates.open(profile.activeInvocations[0].generation)
    await profile.waitForInvocations()
    #expect(profile.state == "failed")
    #expect(profile.failure as? ProfileFetchError == .notFound)
  }

  @Test("I7, I8: a result of work whose state was left and re-entered is dropped; the new one is taken")
  func staleResultIsDropped() async {
    let profile = InvokeProfile()
    #expect(profile.fire("load"))
    let first = profile.activeInvocations[0].generation
    #expect(profile.fire("cancel"))
    #expect(profile.activeInvocations.isEmpty)
    profile.userID = "7"
    #expect(profile.fire("load"))
    let second = profile.activeInvocations[0].generation
    #expect(second > first)
    // The first work ignores its cancellation and finishes: its result is dropped.
    profile.gates.open(first)
    await eventually { profile.invocationStatistics.dropped == 1 }
    #expect(profile.state == "loading")
    #expect(profile.user == nil)
    profile.gates.open(second)
    await profile.waitForInvocations()
    #expect(profile.state == "ready")
    #expect(profile.user == "user 7")
    #expect(profile.invocationStatistics == InvocationStatistics(started: 2, finished: 2, delivered: 1, dropped: 1))
  }

  @Test("I8: an external self-transition restarts the work; an internal one keeps it")
  func selfTransitionRestarts() async {
    let profile = InvokeProfile()
    #expect(profile.fire("load"))
    let first = profile.activeInvocations[0].generation
    #expect(profile.fire("tick"))
    #expect(profile.activeInvocations.map(\.generation) == [first])
    #expect(profile.fire("reload"))
    #expect(profile.activeInvocations.map(\.generation) == [first + 1])
    #expect(profile.entries == 2)
    profile.gates.open(first)
    profile.gates.open(first + 1)
    await profile.waitForInvocations()
    #expect(profile.state == "ready")
    #expect(profile.invocationStatistics.delivered == 1)
    #expect(profile.invocationStatistics.dropped == 1)
  }

  @Test("I9: stopping the machine cancels the work and delivers nothing")
  func stopCancels() async throws {
    let profile = InvokeProfile()
    #expect(profile.fire("load"))
    let generation = profile.activeInvocations[0].generation
    try profile.stopStateMachine()
    #expect(profile.activeInvocations.isEmpty)
    profile.gates.open(generation)
    await profile.waitForInvocations()
    #expect(profile.state == "idle")
    #expect(profile.user == nil)
    #expect(profile.invocationStatistics.dropped == 1)
  }

  @Test("I9: restoreState cancels the running work; I10: the restored state's work starts with the next event's run")
  func restoreStateCancelsAndRestarts() async throws {
    let profile = InvokeProfile()
    #expect(profile.fire("load"))
    let first = profile.activeInvocations[0].generation
    try profile.restoreState("loading")
    // restoreState runs no user code: nothing started yet.
    #expect(profile.activeInvocations.isEmpty)
    profile.gates.open(first)
    await profile.waitForInvocations()
    #expect(profile.state == "loading")
    #expect(profile.invocationStatistics.dropped == 1)
    // The next event's run starts the restored state's work.
    #expect(profile.fire("tick"))
    #expect(profile.activeInvocations.count == 1)
    profile.gates.open(profile.activeInvocations[0].generation)
    await profile.waitForInvocations()
    #expect(profile.state == "ready")
  }
}
