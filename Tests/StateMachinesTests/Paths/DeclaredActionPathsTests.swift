// Declared actions (raise, send, delayed send, cancel, choose on In()) as the runtime runs them
// and as the path explorer runs them, from Swift, SCXML and JSON (Paths §What the explorer runs).

import Foundation
@testable import StateMachines
import StateMachinesSCXML
import Testing

@Suite("Declared actions: the runtime and the explorer run them alike", .timeLimit(.minutes(1)))
struct DeclaredActionPathsTests {
  static let raisesOnEntry = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s1">
      <state id="s1" initial="s11">
        <state id="s11">
          <onentry><raise event="go.left"/></onentry>
          <transition event="go.left" target="s12"/>
        </state>
      </state>
      <state id="s4" initial="s12"><state id="s12"><transition event="back" target="s11"/></state></state>
    </scxml>
    """

  @Test("a raise in onentry is part of the start: the paths start in s4/s12 and offer no go.left step")
  func raiseOnEntryIsPartOfTheStart() async throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(scxml: Data(Self.raisesOnEntry.utf8))
    let paths = try StateMachinePaths(evaluatingGuardsOf: definition)
    #expect(paths.configurations == [["s4/s12"]])
    let cover = paths.transitionCover()
    #expect(cover.paths.allSatisfy { $0.steps[0].configuration == ["s4/s12"] })
    #expect(!cover.paths.flatMap(\.steps).contains { $0.kind == .event("go.left") })
    #expect(cover.unreached.isEmpty)
    #expect(paths.unseenCallbacks.isEmpty)
    for path in cover.paths { try await path.replay(on: { DynamicStateMachine(definition) }) }
  }

  @Test("Swift: .raise on a transition and onEntry(_:raise:) are run by the explorer and listed as seen")
  func swiftDeclaredRaises() async throws {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("idle")
      sm.addState("checking")
      sm.addState("valid")
      sm.addState("done")
      sm.when("submit", transitionFrom: "idle", to: "checking").raise("validate")
      sm.when("validate", transitionFrom: "checking", to: "valid")
      sm.onEntry("valid", raise: "finish")
      sm.when("finish", transitionFrom: "valid", to: "done")
    }
    let object = DynamicStateMachine(definition)
    #expect(object.fire("submit"))
    #expect(object.state == "done")
    let paths = try StateMachinePaths(definition)
    #expect(paths.configurations == [["idle"], ["done"]])
    #expect(paths.unseenCallbacks.isEmpty)
    let cover = paths.transitionCover()
    #expect(Set(cover.paths.flatMap { $0.steps.flatMap(\.transitions) }) == Set(paths.transitionNames))
    for path in cover.paths { try await path.replay(on: { DynamicStateMachine(definition) }) }
  }

  @Test("code that fires events is listed as unseen, and a replay says where the object went elsewhere")
  func codeIsUnseen() async throws {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("a")
      sm.addState("b")
      sm.addState("c")
      sm.when("go", transitionFrom: "a", to: "b").action { $0.fire("next") }
      sm.when("next", transitionFrom: "b", to: "c")
      sm.onEntry("c") { _ in }
      sm.after("go") { _ in }
    }
    let paths = try StateMachinePaths(definition)
    #expect(paths.unseenCallbacks == ["action of a –go→ b", "entry action of c", "after 'go'"])
    let toB = try #require(paths.shortestPaths().paths.first { $0.configuration == ["b"] })
    let error = await #expect(throws: PathReplayError.self) {
      try await toB.replay(on: { DynamicStateMachine(definition) })
    }
    #expect(error?.step == 1)
    #expect(error?.actualConfiguration == ["c"])
  }

  static let delayed = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="waiting">
      <state id="waiting">
        <onentry><send event="expire" delay="5s" id="timer"/><send event="remind" delay="2s"/></onentry>
        <transition event="pay" target="paid"><cancel sendid="timer"/></transition>
        <transition event="expire" target="expired"/>
        <transition event="remind"><if cond="In('waiting')"><raise event="reminded"/><else/><raise event="pay"/></if></transition>
        <transition event="reminded" target="reminding"/>
      </state>
      <state id="reminding"><transition event="expire" target="expired"/><transition event="pay" target="paid"><cancel sendid="timer"/></transition></state>
      <state id="paid"/>
      <final id="expired"/>
    </scxml>
    """

  @Test("SCXML: delayed sends are timed steps, cancel takes them back, if chooses on In(); every path replays on a ManualClock")
  func delayedSendsAndCancel() async throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(scxml: Data(Self.delayed.utf8), clock: ManualClock())
    let paths = try StateMachinePaths(evaluatingGuardsOf: definition)
    let shortest = paths.shortestPaths()
    let labels = shortest.paths.map { $0.steps.map(\.label) }
    // The reminder after 2 s, the rest of the timer's 5 s after it.
    #expect(labels.contains(["start", "after 2.0 seconds: sent remind"]))
    #expect(paths.configurations.contains(["reminding"]))
    let cover = paths.transitionCover()
    #expect(cover.unreached.isEmpty, "\(cover.unreached)")
    // Paid, the timer was cancelled: the reminder still comes (and is refused), the timer never.
    #expect(labels.contains(["start", "pay", "after 2.0 seconds: sent remind"]))
    #expect(!labels.contains { $0.starts(with: ["start", "pay"]) && $0.contains { $0.contains("sent expire") } })
    // Reminded, the timer's 3 s left fall due.
    let late = paths.simplePaths(from: "reminding", to: "expired").paths.flatMap(\.steps)
    #expect(late.contains { $0.kind == .delayedSend(events: ["expire"], after: .seconds(3)) }, "\(late)")
    for path in shortest.paths + cover.paths { try await path.replay(on: { DynamicStateMachine(definition) }) }
  }

  @Test("post(_:after:id:) and cancelPost(id:): a cancelled send never fires, another id does")
  func cancelPost() async throws {
    let clock = ManualClock()
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.clock = clock
      sm.addState("a")
      sm.addState("b")
      sm.addState("c")
      sm.when("toB", transitionFrom: "a", to: "b")
      sm.when("toC", transitionFrom: ["a", "b"], to: "c")
    }
    let object = DynamicStateMachine(definition)
    object.post("toC", after: .seconds(1), id: "t")
    object.post("toB", after: .seconds(2), id: "u")
    object.cancelPost(id: "t")
    object.cancelPost(id: "nothing")
    await clock.advance(by: .seconds(1))
    #expect(object.state == "a")
    await clock.advance(by: .seconds(1))
    #expect(object.state == "b")
    #expect(definition.compiled.delayedSends.count == 0)
  }

  @Test("SCXML: <if>/<elseif>/<else> on In() choose as the runtime's configuration says; a bound action inside <if> is refused at its line")
  func ifImport() throws {
    let chart = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="p">
        <parallel id="p">
          <state id="r1"><state id="x"/><state id="y"/></state>
          <state id="r2"><state id="m">
            <transition event="go">
              <if cond="In('y')"><raise event="toY"/><elseif cond="In('x') &amp;&amp; !In('y')"/><raise event="toN"/><else/><raise event="toY"/></if>
            </transition>
            <transition event="toN" target="n"/>
          </state><state id="n"/></state>
        </parallel>
      </scxml>
      """
    let object = try DynamicStateMachine(scxml: Data(chart.utf8))
    #expect(object.fire("go"))
    #expect(object.activeLeaves == ["p/r1/x", "p/r2/n"])
    let bound = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"><onentry>
      <if cond="In('a')"><beep/></if></onentry></state></scxml>
      """
    #expect {
      _ = try StateMachineDefinition<DynamicStateMachine>(scxml: Data(bound.utf8), bind: { $0.action("beep") { _, _ in } })
    } throws: { error in
      "\(error)".contains("<beep> is not supported in <if>") && "\(error)".contains("2")
    }
  }

  static let json = """
    {
      "format": "statemachines/1",
      "initial": "waiting",
      "states": {
        "waiting": {
          "entry": [{ "send": "expire", "delay": 5, "id": "timer" }, "log"],
          "exit": [{ "cancel": "timer" }],
          "on": {
            "pay": { "target": "paying", "actions": [{ "raise": "confirm" }, "charge", { "send": "receipt" }] },
            "expire": "expired"
          }
        },
        "paying": { "on": { "confirm": "paid" } },
        "paid": { "on": { "receipt": "done" } },
        "done": {},
        "expired": { "type": "final" }
      }
    }

    """

  @Test("JSON: raise, send, delayed send and cancel load, run, are explored and export back unchanged")
  func jsonDeclaredActions() async throws {
    let clock = ManualClock()
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(Self.json.utf8), clock: clock) { bind in
      bind.action("log") { _, _ in }
      bind.action("charge") { _, _ in }
    }
    let object = DynamicStateMachine(definition)
    try object.startStateMachine()
    #expect(object.fire("pay"))
    #expect(object.state == "done")
    await clock.advance(by: .seconds(5))
    #expect(object.state == "done", "the exit cancelled the timer")
    let paths = try StateMachinePaths(evaluatingGuardsOf: definition)
    #expect(Set(paths.configurations) == [["waiting"], ["done"], ["expired"]])
    #expect(paths.unseenCallbacks == ["action of waiting –pay→ paying", "entry action of waiting"])
    // Export writes every action back, in order; loading the export gives the same export.
    let exported = try definition.jsonDefinition()
    let document = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
    let waiting = try #require((document["states"] as? [String: Any])?["waiting"] as? [String: Any])
    #expect(waiting["entry"] as? NSArray == [["send": "expire", "delay": 5, "id": "timer"], "log"] as NSArray)
    #expect(waiting["exit"] as? NSArray == [["cancel": "timer"]] as NSArray)
    let pay = try #require((waiting["on"] as? [String: Any])?["pay"] as? [String: Any])
    #expect(pay["actions"] as? NSArray == [["raise": "confirm"], "charge", ["send": "receipt"]] as NSArray)
    let reloaded = try StateMachineDefinition<DynamicStateMachine>(json: Data(exported.utf8)) { bind in
      bind.action("log") { _, _ in }
      bind.action("charge") { _, _ in }
    }
    #expect(try reloaded.jsonDefinition() == exported)
    // Declared in Swift, the same actions export too; a choice has no JSON form.
    let swift = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("a")
      sm.when("go", transitionFrom: "a", to: "a").perform([.raise("go"), .send("go", delay: .seconds(1), id: "t")])
      sm.onExit("a", perform: [.cancel("t")])
    }
    #expect(try swift.jsonDefinition().contains(#""cancel": "t""#))
    let choosing = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("a")
      sm.onEntry("a", perform: [.choose([DeclaredBranch(.inState("a"), [.raise("go")])])])
    }
    #expect(throws: DefinitionError.self) { _ = try choosing.jsonDefinition() }
  }

  @Test("JSON: a declared action object with two kinds, or an id without a delay, is refused at its location")
  func jsonBadDeclaredActions() throws {
    for (text, message) in [
      (#"{"states": {"a": {"entry": [{"raise": "e", "cancel": "t"}]}}}"#, "exactly one of 'raise', 'send' and 'cancel'"),
      (#"{"states": {"a": {"entry": [{"send": "e", "id": "t"}]}}}"#, "'id' needs a 'delay'"),
      (#"{"states": {"a": {"entry": [{"send": "e", "delay": -1}]}}}"#, "'delay' must be positive"),
    ] {
      #expect(throws: DefinitionError.self) { _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) }
      do {
        _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
      } catch {
        #expect("\(error)".contains(message), "\(error)")
        #expect("\(error)".contains("/entry/0"), "\(error)")
      }
    }
  }
}
