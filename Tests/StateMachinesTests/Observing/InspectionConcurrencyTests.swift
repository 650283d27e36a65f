import Dispatch
import Foundation
import Testing

import StateMachines

// A locked (`Sendable`) class inspected while threads fire at it (Inspecting B.7
// item 1): the records are numbered without gaps or repeats, each event's step follows its event,
// and the steps chain up (each exits what the one before entered).

/// `next` goes round a → b → c → a.
@StateMachine
final class InspectedRing: Sendable {
  static let stateMachine = StateMachineDefinition<InspectedRing> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.addState("c")
    sm.when("next", transitionFrom: "a", to: "b")
    sm.when("next", transitionFrom: "b", to: "c")
    sm.when("next", transitionFrom: "c", to: "a")
  }
}

@Suite(.timeLimit(.minutes(1))) struct InspectionConcurrencyTests {
  @Test("4 threads × 500 events on a locked object: 4,001 records in order, chained steps")
  func threadsFiringAtAnInspectedObject() async {
    let ring = InspectedRing()
    let stream = ring.inspectionRecords(bufferingPolicy: .unbounded)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<500 { ring.fire("next") }
    }
    var iterator = stream.makeAsyncIterator()
    let got = await nextRecords(4_001, from: &iterator)
    #expect(got.map(\.sequence) == Array(1...4_001))
    #expect(got[0].kind == .snapshot && got[0].configuration == ["a"])
    let steps = got.filter { $0.kind == .step }
    #expect(steps.count == 2_000)
    #expect(zip(got.dropFirst(), got.dropFirst(2)).allSatisfy { $0.kind == .event ? $1.kind == .step : $1.kind == .event })
    var active = "a"
    var chained = true
    for step in steps {
      chained = chained && step.exited == [active] && step.entered.count == 1
      active = step.entered.first ?? active
    }
    #expect(chained)
    // 2,000 steps round a cycle of 3 end in the state 2,000 mod 3 = 2 steps on: c.
    #expect(active == "c" && ring.state == "c")
  }
}
