import StateMachines
import Testing

// The order of one step (Semantics §Firing an event, steps 3–8): before → exit(old) →
// action → [state written] → entry(new) → after → didTransition observers. Each callback writes
// the state the object was in when it ran, so the log also shows when the state was written.

/// `start` (idle → running) has two callbacks of every kind; `finish` (running → done) one. Some
/// callbacks are registered before the transition they belong to: the DSL order does not matter.
@StateMachine
final class OrderRecorder {
  var log: [String] = []

  func record(_ what: String) {
    log.append("\(what) in \(state)")
  }

  static let stateMachine = StateMachineDefinition<OrderRecorder> { sm in
    sm.addState("idle")
    sm.addState("running")
    sm.addState("done")
    sm.before("start") { $0.record("before#1 start") }
    sm.onEntry("running") { $0.record("entry#1 running") }
    sm.when("start", transitionFrom: "idle", to: "running").action { $0.record("action start") }
    sm.when("finish", transitionFrom: "running", to: "done").action { $0.record("action finish") }
    sm.before("start") { recorder, transition in
      recorder.record("before#2 \(transition.event) \(transition.from)->\(transition.to)")
    }
    sm.onExit("idle") { $0.record("exit#1 idle") }
    sm.onExit("idle") { recorder, transition in recorder.record("exit#2 idle for \(transition.event)") }
    sm.onEntry("running") { recorder, transition in recorder.record("entry#2 running from \(transition.from)") }
    sm.after("start") { $0.record("after#1 start") }
    sm.after("start") { recorder, transition in recorder.record("after#2 \(transition.event)") }
    sm.onExit("running") { $0.record("exit running") }
    sm.onEntry("done") { $0.record("entry done") }
    sm.before("finish") { $0.record("before finish") }
    sm.after("finish") { $0.record("after finish") }
    sm.didTransition { recorder, transition in
      recorder.record("observer#1 \(transition.from)-\(transition.event)->\(transition.to)")
    }
    sm.didTransition { recorder, _ in recorder.record("observer#2") }
  }
}

/// Names from arrays, as a definition loaded at run time has them.
private let orderStates = ["red", "green", "yellow"]
private let orderEvents = ["go", "slow", "stop"]

/// A traffic light built at run time, its callbacks added in loops; each writes to the probe
/// what ran and the state the machine was in then.
private func makeOrderLight(_ probe: FlatTestProbe) throws(DefinitionError) -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for state in orderStates {
      sm.addState(state)
      sm.onEntry(state) { light in probe.log.append("entry \(state) in \(light.state)") }
      sm.onExit(state) { light in probe.log.append("exit \(state) in \(light.state)") }
    }
    for (index, event) in orderEvents.enumerated() {
      let from = orderStates[index]
      let to = orderStates[(index + 1) % orderStates.count]
      sm.when(event, transitionFrom: from, to: to)
        .action { light in probe.log.append("action \(event) in \(light.state)") }
      sm.before(event) { light in probe.log.append("before \(event) in \(light.state)") }
      sm.after(event) { light in probe.log.append("after \(event) in \(light.state)") }
    }
    sm.didTransition { light, transition in probe.log.append("observer \(transition.event) in \(light.state)") }
  })
}

@Suite("Callback order")
struct CallbackOrderTests {
  @Test("before, exit, action, entry, after, observers: in this order, each kind in registration order")
  func fullOrder() {
    let recorder = OrderRecorder()
    #expect(recorder.start())
    #expect(
      recorder.log == [
        "before#1 start in idle",
        "before#2 start idle->running in idle",
        "exit#1 idle in idle",
        "exit#2 idle for start in idle",
        "action start in idle",
        "entry#1 running in running",
        "entry#2 running from idle in running",
        "after#1 start in running",
        "after#2 start in running",
        "observer#1 idle-start->running in running",
        "observer#2 in running",
      ])
  }

  @Test("only the callbacks of the fired event and of the states left and entered run")
  func onlyRelevantCallbacks() {
    let recorder = OrderRecorder()
    #expect(recorder.start())
    recorder.log = []
    #expect(recorder.finish())
    #expect(
      recorder.log == [
        "before finish in running",
        "exit running in running",
        "action finish in running",
        "entry done in done",
        "after finish in done",
        "observer#1 running-finish->done in done",
        "observer#2 in done",
      ])
  }

  @Test("the same order when fired by name")
  func orderByName() {
    let recorder = OrderRecorder()
    #expect(recorder.fire("start"))
    #expect(recorder.log.count == 11)
    #expect(recorder.log.first == "before#1 start in idle")
    #expect(recorder.log.last == "observer#2 in running")
  }

  @Test("a rejected event runs no callback")
  func rejectedEventRunsNothing() {
    let recorder = OrderRecorder()
    #expect(!recorder.finish())
    #expect(!recorder.fire("finish"))
    #expect(recorder.log.isEmpty)
  }

  @Test("callbacks added in loops to a definition built at run time run in the same order")
  func dynamicOrder() throws {
    let probe = FlatTestProbe()
    let light = try makeOrderLight(probe)
    // Semantics "starts … on its first use": the first query enters the initial state.
    #expect(light.state == "red")
    #expect(light.fire("go"))
    #expect(light.fire("slow"))
    #expect(light.fire("stop"))
    #expect(light.state == "red")
    #expect(
      probe.log == [
        "entry red in red",
        "before go in red", "exit red in red", "action go in red", "entry green in green",
        "after go in green", "observer go in green",
        "before slow in green", "exit green in green", "action slow in green",
        "entry yellow in yellow", "after slow in yellow", "observer slow in yellow",
        "before stop in yellow", "exit yellow in yellow", "action stop in yellow",
        "entry red in red", "after stop in red", "observer stop in red",
      ])
  }
}
