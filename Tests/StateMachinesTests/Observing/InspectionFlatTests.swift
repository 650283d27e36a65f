import Foundation
import Testing

@testable import StateMachines

// Inspection records of a flat machine (Inspecting B.7 item 1): a scripted run yields the
// expected records (snapshot, event, step, rejected, invoke).

@StateMachine
final class InspectedTicket {
  var approved = false
  static let stateMachine = StateMachineDefinition<InspectedTicket> { sm in
    sm.addState("new")
    sm.addState("assigned")
    sm.addState("done")
    sm.addFinalState("closed")
    sm.when("assign", transitionFrom: "new", to: "assigned")
    sm.when("finish", transitionFrom: "assigned", to: "done").guarded { ticket, _ in ticket.approved }
    sm.when("reopen", transitionFrom: ["assigned", "done"], to: "new")
    sm.when("note", transitionFrom: "assigned", to: "assigned", internal: true)
    sm.when("close", transitionFrom: "new", to: "closed")
  }
}

/// Reads `count` records from `iterator`.
func nextRecords(
  _ count: Int, from iterator: inout AsyncStream<InspectionRecord>.Iterator
) async -> [InspectionRecord] {
  var records: [InspectionRecord] = []
  while records.count < count, let record = await iterator.next() { records.append(record) }
  return records
}

@Suite(.timeLimit(.minutes(1))) struct InspectionFlatTests {
  @Test("a scripted run: snapshot, then event and step or rejected per event, numbered 1, 2, 3 …")
  func scriptedRun() async throws {
    let ticket = InspectedTicket()
    var records = ticket.inspectionRecords().makeAsyncIterator()
    #expect(ticket.assign())
    #expect(!ticket.finish())  // the guard refuses
    ticket.approved = true
    // Through `fireOrThrow`, which records the payload (`fire` does not: it would cost every
    // accepted event of `fire(_:payload:)` a copy of the payload).
    #expect(throws: StateMachineError.self) { try ticket.fireOrThrow("bogus", payload: 7) }
    #expect(ticket.fire("note", payload: "hello"))
    #expect(await ticket.send("finish", source: .inspector).happened)
    #expect(ticket.fire("reopen"))
    #expect(ticket.close())
    #expect(!ticket.assign())  // terminated

    let got = await nextRecords(16, from: &records)
    #expect(got.map(\.sequence) == Array(1...16))
    #expect(
      got.map(\.kind) == [
        .snapshot, .event, .step, .event, .rejected, .rejected, .event, .step, .event, .step, .event, .step, .event,
        .step, .event, .rejected,
      ])
    let snapshot = got[0]
    #expect(snapshot.configuration == ["new"])
    #expect(snapshot.state == "new")
    #expect(!snapshot.terminated)
    #expect(snapshot.runningInvocations.isEmpty)

    // The document's edges: assign 0, finish 1, reopen from assigned 2, from done 3, note 4, close 5.
    let document = InspectedTicket.stateMachine.inspectionDocument
    #expect(document.transitions.map(\.event) == ["assign", "finish", "reopen", "reopen", "note", "close"])
    #expect(document.transitions.map(\.source) == [0, 1, 1, 2, 1, 0])

    #expect(got[1].event == "assign" && got[1].source == .api && got[1].payload == nil)
    #expect(got[2].event == "assign" && got[2].exited == ["new"] && got[2].entered == ["assigned"])
    #expect(got[2].transitions == [0] && got[2].configuration == ["assigned"] && got[2].state == "assigned")
    #expect(got[2].duration != nil && got[2].reason == nil)

    #expect(got[3].event == "finish")
    #expect(got[4].event == "finish")
    #expect(got[4].reason == StateMachineError.guardsFailed(event: "finish", state: "assigned").description)

    // An unknown name is rejected without being taken up: no `.event` before it.
    #expect(got[5].event == "bogus" && got[5].payload as? Int == 7)
    #expect(got[5].reason == StateMachineError.unknownEvent("bogus").description)

    // An internal transition: taken, nothing exited or entered.
    #expect(got[6].payload as? String == "hello")
    #expect(got[7].transitions == [4] && got[7].exited.isEmpty && got[7].entered.isEmpty)
    #expect(got[7].payload as? String == "hello")

    #expect(got[8].source == .inspector && got[9].source == .inspector)
    #expect(got[9].transitions == [1] && got[9].configuration == ["done"])
    #expect(got[11].transitions == [3] && got[11].exited == ["done"] && got[11].entered == ["new"])
    #expect(got[13].transitions == [5] && got[13].terminated && got[13].state == "closed")
    #expect(got[15].reason == StateMachineError.terminated(event: "assign", state: "closed").description)
  }

  @Test("events fired inside a step are recorded with source queue, after the step that fired them")
  func queuedEventsHaveTheQueueSource() async {
    let machine = try! DynamicStateMachine(validating: { sm in
      sm.addState("a")
      sm.addState("b")
      sm.addState("c")
      sm.when("go", transitionFrom: "a", to: "b").action { machine, _ in machine.fire("next") }
      sm.when("next", transitionFrom: "b", to: "c")
    })
    var records = machine.inspectionRecords().makeAsyncIterator()
    #expect(machine.fire("go"))
    let got = await nextRecords(5, from: &records)
    #expect(got.map(\.kind) == [.snapshot, .event, .step, .event, .step])
    #expect(got.map(\.event) == [nil, "go", "go", "next", "next"])
    #expect(got[1].source == .api)
    #expect(got[3].source == .queue && got[4].source == .queue)
    #expect(got[4].configuration == ["c"])
  }

  @Test("posted events and timeouts are recorded with their sources")
  func postAndTimeoutSources() async {
    let clock = ManualClock()
    let machine = try! DynamicStateMachine(validating: { sm in
      sm.clock = clock
      sm.addState("a")
      sm.addState("b")
      sm.addState("c")
      sm.when("go", transitionFrom: "a", to: "b")
      sm.when("expire", transitionFrom: "b", to: "c", after: .seconds(5))
    })
    var records = machine.inspectionRecords().makeAsyncIterator()
    #expect(machine.post("go"))
    await clock.advance(by: .seconds(5))
    let got = await nextRecords(5, from: &records)
    #expect(got.map(\.kind) == [.snapshot, .event, .step, .event, .step])
    #expect(got[1].source == .post)
    #expect(got[3].source == .timeout && got[3].event == "expire")
    #expect(got[4].configuration == ["c"])
  }

  @Test("restoreState and stopStateMachine are recorded as steps without an event")
  func resetsAreRecorded() async throws {
    let ticket = InspectedTicket()
    var records = ticket.inspectionRecords().makeAsyncIterator()
    try ticket.restoreState("done")
    try ticket.stopStateMachine()
    let got = await nextRecords(3, from: &records)
    #expect(got.map(\.kind) == [.snapshot, .step, .step])
    #expect(got[1].event == nil && got[1].source == nil)
    #expect(got[1].exited == ["new"] && got[1].entered == ["done"] && got[1].configuration == ["done"])
    #expect(got[2].exited == ["done"] && got[2].entered.isEmpty && got[2].state == "new")
  }
}
