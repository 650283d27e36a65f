import Foundation
import Testing

@testable import StateMachines

// Invocation records and a @MainActor class (Inspecting B.4 `invoke` records; closes
// Invoke I15's inspector part): started, done, cancelled and dropped, and the result event
// with its `invoke` source.

/// A profile that fetches its user while `loading`, on the main actor; the test opens the gates.
@MainActor
@StateMachine
final class InspectedProfile {
  static let clock = ManualClock()
  let gates = InvocationGates()
  var user: String?
  static let stateMachine = StateMachineDefinition<InspectedProfile> { sm in
    sm.clock = InspectedProfile.clock
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.when("load", transitionFrom: ["idle", "ready"], to: "loading")
    sm.when("cancel", transitionFrom: "loading", to: "idle")
    sm.invoke("fetchUser", in: "loading", input: { profile, _ in profile.gates }) { context in
      await context.input.wait(context.generation)
      return "user #\(context.generation)"
    }
    sm.whenInvokeDone("fetchUser", transitionTo: "ready").action { profile, transition in
      profile.user = transition.payload(as: String.self)
    }
  }
}

@MainActor
@Suite(.serialized, .timeLimit(.minutes(1)))
struct InspectionInvokeTests {
  @Test("started, done with its result event (source invoke), cancelled, and a late result dropped")
  func invocationLifecycle() async {
    let profile = InspectedProfile()
    var records = profile.inspectionRecords().makeAsyncIterator()
    let snapshot = await nextRecords(1, from: &records)
    #expect(snapshot.first?.kind == .snapshot && snapshot.first?.state == "idle")

    #expect(profile.load())
    var got = await nextRecords(3, from: &records)
    #expect(got.map(\.kind) == [.event, .step, .invoke])
    #expect(got[1].entered == ["loading"])
    let first = try! #require(got[2].invocation)
    #expect(first.id == "fetchUser" && first.phase == .started && first.state == "loading")
    #expect(got[2].source == .invoke(id: "fetchUser", generation: first.generation))

    profile.gates.open(first.generation)
    await profile.waitForInvocations()
    got = await nextRecords(3, from: &records)
    #expect(got.map(\.kind) == [.invoke, .event, .step])
    #expect(got[0].invocation?.phase == .done && got[0].event == "done.invoke.fetchUser")
    #expect(got[1].event == "done.invoke.fetchUser" && got[1].source == .invoke(id: "fetchUser", generation: first.generation))
    #expect(got[1].payload as? String == "user #\(first.generation)")
    #expect(got[2].configuration == ["ready"])

    // Load again and cancel: the exit cancels the invocation inside the step.
    #expect(profile.load())
    got = await nextRecords(3, from: &records)
    let second = try! #require(got[2].invocation)
    #expect(second.phase == .started && second.generation > first.generation)
    #expect(profile.cancel())
    got = await nextRecords(3, from: &records)
    #expect(got.map(\.kind) == [.event, .invoke, .step])
    #expect(got[1].invocation == InspectedInvocation(id: "fetchUser", generation: second.generation, state: "loading", phase: .cancelled))
    #expect(got[2].exited == ["loading"] && got[2].entered == ["idle"])

    // The cancelled work finishes anyway: its result is dropped.
    profile.gates.open(second.generation)
    await profile.waitForInvocations()
    got = await nextRecords(1, from: &records)
    #expect(got.first?.invocation == InspectedInvocation(id: "fetchUser", generation: second.generation, state: "loading", phase: .dropped))
    #expect(got.first?.event == "done.invoke.fetchUser")
    #expect(got.first?.state == "idle")
    #expect(profile.state == "idle")
  }

  @Test("a snapshot lists the running invocations; sequence numbers keep increasing per object")
  func snapshotListsRunningInvocations() async {
    let profile = InspectedProfile()
    #expect(profile.load())
    var records = profile.inspectionRecords().makeAsyncIterator()
    let snapshot = await nextRecords(1, from: &records)[0]
    #expect(snapshot.runningInvocations == ["fetchUser"])
    #expect(snapshot.configuration == ["loading"])
    // A second stream continues the object's numbering.
    var later = profile.inspectionRecords().makeAsyncIterator()
    #expect(await nextRecords(1, from: &later)[0].sequence == snapshot.sequence + 1)
    let generation = profile.activeInvocations[0].generation
    #expect(profile.cancel())
    let first = await nextRecords(3, from: &records)
    let second = await nextRecords(3, from: &later)
    #expect(first.map(\.sequence) == second.map(\.sequence))
    #expect(first.map(\.sequence) == [3, 4, 5])
    profile.gates.open(generation)
    await profile.waitForInvocations()
  }
}
