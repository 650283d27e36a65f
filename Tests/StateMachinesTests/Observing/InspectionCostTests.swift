import Foundation
import Testing

@testable import StateMachines

// What inspection costs (Inspecting B.7 item 1, Inspecting §Cost): no records and no full-step cost
// without a stream; buffers bounded by the policy.

@Suite(.timeLimit(.minutes(1))) struct InspectionCostTests {
  @Test("an object never inspected keeps the fast tier: no flag set, no extras, no capture")
  func noCostWithoutAStream() {
    let ticket = InspectedTicket()
    #expect(ticket.assign())
    #expect(ticket.reopen())
    // The fast and light tiers are taken only while every slow-path flag is clear.
    #expect(ticket._$stateMachineStorage.slowPathFlags == 0)
    #expect(ticket._$stateMachineStorage.extras == nil)
  }

  @Test("a statechart with a transition stream but no inspection keeps its planned steps")
  func plannedStepsWithoutInspection() async {
    let definition = InspectionStatechartTests.definition()
    let player = DynamicStateMachine(definition)
    let transitions = player.stateTransitions
    _ = transitions
    #expect(player.fire("power"))
    let extras = try! #require(player._$stateMachineStorage.extras)
    #expect(extras.inspection == nil && extras.capture == nil)
    guard case .statechart(let chart) = definition.compiled.engine else {
      Issue.record("a hierarchical definition compiled to the flat engine")
      return
    }
    // The slot of `hd` from this configuration is planned, and nothing sends the object off it.
    let number = extras.chart?.number ?? -1
    #expect(chart.plans.plan(event: definition.eventIndex("hd")!, from: number) != nil)
    #expect(player.fire("hd"))
    #expect(extras.capture == nil)
  }

  @Test("an inspected object takes the slow path; once its stream ends it records nothing more")
  func aCancelledStreamStopsCosting() async {
    let machine = try! DynamicStateMachine(validating: { sm in
      sm.addState("a")
      sm.addState("b")
      sm.when("flip", transitionFrom: "a", to: "b")
      sm.when("flip", transitionFrom: "b", to: "a")
    })
    // The stream lives in the task only: when its loop ends, nothing holds it.
    let task = Task { () -> Int in
      var count = 0
      for await _ in machine.inspectionRecords() {
        count += 1
        if count == 3 { break }
      }
      return count
    }
    while machine.locked({ $0.extras?.inspection?.isListening }) != true { try? await Task.sleep(for: .milliseconds(1)) }
    let inspection = try! #require(machine.locked { $0.extras?.inspection })
    #expect(machine.locked { $0.slowPathFlags } & StateMachineStorage.extrasFlag != 0)
    #expect(machine.fire("flip"))
    #expect(await task.value == 3)
    // The consumer ended: the stream is gone, and no run is captured any more.
    #expect(!inspection.isListening)
    #expect(machine.fire("flip"))
    #expect(machine.locked { $0.extras?.capture } == nil)
  }

  @Test("bufferingNewest bounds what a slow consumer is kept: the newest records, in order")
  func bufferingNewestBoundsASlowConsumer() async {
    let machine = try! DynamicStateMachine(validating: { sm in
      sm.addState("a")
      sm.addState("b")
      sm.when("flip", transitionFrom: "a", to: "b")
      sm.when("flip", transitionFrom: "b", to: "a")
    })
    let stream = machine.inspectionRecords(bufferingPolicy: .bufferingNewest(10))
    for _ in 0..<1_000 { machine.fire("flip") }
    var iterator = stream.makeAsyncIterator()
    let kept = await nextRecords(10, from: &iterator)
    // 1 snapshot + 2,000 records were made; the newest 10 are kept.
    #expect(kept.map(\.sequence) == Array(1_992...2_001))
    #expect(kept.last?.kind == .step)
    machine.fire("flip")
    #expect(await iterator.next()?.sequence == 2_002)
  }

  @Test("the stream ends when the object goes away")
  func theStreamEndsWithTheObject() async {
    var ticket: InspectedTicket? = InspectedTicket()
    let stream = ticket!.inspectionRecords()
    ticket?.assign()
    ticket = nil
    var kinds: [InspectionRecord.Kind] = []
    for await record in stream { kinds.append(record.kind) }
    #expect(kinds == [.snapshot, .event, .step])
  }
}

extension DynamicStateMachine {
  /// Reads the storage under the machine's lock (tests only).
  func locked<R>(_ body: (StateMachineStorage) -> R) -> R {
    stateMachineDefinition.locked(self) { body(_$stateMachineStorage) }
  }
}
