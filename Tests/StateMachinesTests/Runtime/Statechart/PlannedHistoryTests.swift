import Foundation
import Testing

@testable import StateMachines

/// History in the nested shape's plans (S15, Hierarchy §6): a step that exits a state with
/// history records by plan, and a transition into a history takes the plan of what it recorded.
/// The oracle is the same chart with a never-taken eventless transition, which turns planning
/// off: every event then takes the full step.
@Suite("Step plans: history (S15)")
struct PlannedHistoryTests {
  static let events = ["go", "back", "next", "pause", "resume", "shallowResume", "toB", "toA", "reset"]

  /// Two branches with histories at two levels, entry and exit actions on every state.
  static func definition(planned: Bool, _ log: TestRecorder) -> StateMachineDefinition<DynamicStateMachine> {
    StateMachineDefinition<DynamicStateMachine> { sm in
      sm.log = StateMachineLog { _ in }
      sm.addState("on") { on in
        on.addState("a") { a in
          a.addState("a1") {
            $0.addState("a11")
            $0.addState("a12")
          }
          a.addState("a2")
          a.addHistory("ha", .shallow)
        }
        on.addState("b") { b in
          b.addState("b1") { $0.addState("b11") }
          b.addHistory("hb", .deep)
        }
        on.addHistory("resume", .deep)
        on.addHistory("shallow", .shallow)
      }
      sm.addState("off")
      sm.when("go", transitionFrom: "a11", to: "b11")
      sm.when("back", transitionFrom: "b11", to: "a12")
      sm.when("next", transitionFrom: "a12", to: "a2")
      sm.when("next", transitionFrom: "a2", to: "a11")
      sm.when("pause", transitionFrom: "on", to: "off")
      sm.when("resume", transitionFrom: "off", to: "on/resume")
      sm.when("shallowResume", transitionFrom: "off", to: "on/shallow")
      sm.when("toB", transitionFrom: "a", to: "on/b/hb")
      sm.when("toA", transitionFrom: "b", to: "on/a/ha")
      // From inside the history's parent: recorded, then entered in one step (the full step).
      sm.when("reset", transitionFrom: "on", to: "on/resume")
      if !planned { sm.always(transitionFrom: "off", to: "on", if: { _ in false }) }
      for state in ["on", "a", "a1", "a11", "a12", "a2", "b", "b1", "b11", "off"] {
        sm.onEntry(state) { _ in log.append("enter \(state)") }
        sm.onExit(state) { _ in log.append("exit \(state)") }
      }
    }
  }

  @Test("transitions into a history are planned, and the planned chart has alternatives")
  func historyTargetsArePlanned() throws {
    #expect(Self.definition(planned: true, TestRecorder()).definitionError == nil)
    #expect(Self.definition(planned: false, TestRecorder()).definitionError == nil)
    guard case .statechart(let chart) = Self.definition(planned: true, TestRecorder()).compiled.engine,
      case .statechart(let unplannedChart) = Self.definition(planned: false, TestRecorder()).compiled.engine
    else {
      Issue.record("a nested definition compiled to the flat engine")
      return
    }
    let plans = chart.plans
    #expect(plans.entersHistory)
    #expect(!plans.historyPlans.isEmpty)
    #expect(!unplannedChart.plans.entersHistory)
  }

  @Test("a return through deep history: the same exits, entries and state as the full step")
  func deepHistoryReturn() throws {
    let log = TestRecorder()
    let machine = DynamicStateMachine(Self.definition(planned: true, log))
    #expect(machine.fire("go"))
    #expect(machine.fire("pause"))
    log.clear()
    #expect(machine.fire("resume"))
    #expect(machine.state == "on/b/b1/b11")
    #expect(log.lines == ["exit off", "enter on", "enter b", "enter b1", "enter b11"])
  }

  @Test("random events: planned and full steps agree on results, traces, states and saved records")
  func randomEventsAgreeWithTheFullStep() throws {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<200 {
      let plannedLog = TestRecorder()
      let fullLog = TestRecorder()
      let planned = DynamicStateMachine(Self.definition(planned: true, plannedLog))
      let full = DynamicStateMachine(Self.definition(planned: false, fullLog))
      var fired: [String] = []
      for _ in 0..<40 {
        let event = generator.pick(Self.events)
        fired.append(event)
        let plannedResult = planned.fire(event)
        let fullResult = full.fire(event)
        #expect(plannedResult == fullResult, "\(fired)")
        #expect(planned.state == full.state, "\(fired)")
        #expect(plannedLog.lines == fullLog.lines, "\(fired)")
        if plannedResult != fullResult || planned.state != full.state || plannedLog.lines != fullLog.lines { return }
      }
      // The history records, as Codable keeps them.
      let plannedRecords = StateRestoring.encodedState(planned.stateMachineDefinition, of: planned._$stateMachineStorage).history
      let fullRecords = StateRestoring.encodedState(full.stateMachineDefinition, of: full._$stateMachineStorage).history
      #expect(plannedRecords == fullRecords, "\(fired)")
    }
  }
}
