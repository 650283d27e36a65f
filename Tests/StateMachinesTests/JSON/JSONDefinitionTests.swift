import Foundation
import StateMachines
import Testing

/// Definitions in the library's JSON format, `statemachines/1` (Hierarchy §7).
@Suite("JSON definitions (§7)", .timeLimit(.minutes(1)))
struct JSONDefinitionTests {
  /// Hierarchy §7's example.
  static let mediaPlayer = """
    { "format": "statemachines/1", "initial": "off",
      "states": {
        "off": { "on": { "power": "on/resume", "split": { "target": ["deck/audio/muted", "deck/video/hd"] } } },
        "on":  { "initial": "stopped", "entry": ["spinUp"], "on": { "power": "off" },
                 "states": {
                   "stopped": { "on": { "play": { "target": "playing", "guard": "hasTrack" } } },
                   "playing": { "on": { "tick": { "kind": "internal", "actions": ["advance"] } },
                                "after": [ { "seconds": 30, "target": "paused" } ] },
                   "paused":  { "on": { "play": "playing" } },
                   "resume":  { "type": "history", "history": "shallow" } } },
        "deck": { "type": "parallel",
                  "states": { "audio": { "initial": "loud", "states": { "loud": {}, "muted": { "type": "final" } } },
                              "video": { "initial": "sd", "states": { "sd": {}, "hd": { "type": "final" } } } },
                  "onDone": "off" } } }
    """

  func load(
    _ text: String, clock: ManualClock = ManualClock(), counters: TestRecorder = TestRecorder(),
    build: (StateMachineBuilder<DynamicStateMachine>) -> Void = { _ in }
  ) throws(DefinitionError) -> StateMachineDefinition<DynamicStateMachine> {
    try StateMachineDefinition<DynamicStateMachine>(
      json: Data(text.utf8), clock: clock,
      bind: { bind in
        bind.guard("hasTrack") { _, _ in counters["no track"] == 0 }
        bind.action("spinUp") { _, _ in counters.increment("spinUp") }
        bind.action("advance") { _, _ in counters.increment("advance") }
      }, build)
  }

  @Test("§7's example loads and runs: history, internal transitions, guards, timeouts, forks, onDone")
  func mediaPlayerRuns() async throws {
    let clock = ManualClock()
    let counters = TestRecorder()
    let definition = try load(Self.mediaPlayer, clock: clock, counters: counters)
    #expect(definition.definitionWarnings.isEmpty)
    // Document order is key order (N2).
    #expect(
      definition.states == [
        "off", "on", "on/stopped", "on/playing", "on/paused", "deck", "deck/audio", "deck/audio/loud",
        "deck/audio/muted", "deck/video", "deck/video/sd", "deck/video/hd",
      ])
    let player = DynamicStateMachine(definition)
    #expect(player.state == "off")
    #expect(player.fire("power"))
    #expect(player.state == "on/stopped" && counters["spinUp"] == 1)
    counters.increment("no track")  // hasTrack fails
    #expect(!player.fire("play"))
    counters.increment("no track", by: -1)  // hasTrack passes again
    #expect(player.fire("play") && player.state == "on/playing")
    #expect(player.fire("tick") && counters["advance"] == 1 && counters["spinUp"] == 1)
    // The timeout fires after 30 seconds in "playing", by its generated event.
    #expect(definition.events.contains("after.30s.on/playing"))
    await clock.advance(by: .seconds(30))
    #expect(player.state == "on/paused")
    #expect(player.fire("power") && player.state == "off")
    // Shallow history (S15) returns to "paused".
    #expect(player.fire("power") && player.state == "on/paused")
    #expect(player.fire("power"))
    // A fork into both regions' final states; the parallel state is done, so onDone leaves it (S16).
    #expect(player.fire("split"))
    #expect(player.state == "off")
  }

  @Test("targets resolve from the state whose object names them, then outwards (N5)")
  func resolutionFromTheDeclaringState() throws {
    let text = """
      {"states": {
        "a": {"initial": "idle", "on": {"go": "idle"}, "states": {"idle": {}, "busy": {}}},
        "idle": {"on": {"go": "a"}}}}
      """
    let machine = DynamicStateMachine(try load(text))
    #expect(machine.state == "a/idle")
    // "idle" written in "a" means a's child, not the top-level "idle".
    #expect(machine.fire("go") && machine.state == "a/idle")
    let ambiguous = """
      {"states": {"x": {"states": {"idle": {}}}, "y": {"states": {"idle": {}}}, "z": {"on": {"go": "idle"}}}}
      """
    #expect(throws: DefinitionError.invalidJSON(
      "'idle' names ambiguous state 'idle': 'x/idle' or 'y/idle'", line: 1, column: 94, pointer: "/states/z/on/go")) {
      try load(ambiguous)
    }
  }

  @Test("an unbound guard or action is an error with its pointer; an unused binding is a warning")
  func bindings() throws {
    let text = """
      {"states": {"a": {"on": {"go": {"target": "b", "guard": "ready", "actions": ["log"]}}}, "b": {}}}
      """
    #expect(throws: DefinitionError.unboundName("guard 'ready'", at: "/states/a/on/go/guard", line: 1, column: 57)) {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    }
    #expect(throws: DefinitionError.unboundName("action 'log'", at: "/states/a/on/go/actions/0", line: 1, column: 77)) {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) { bind in
        bind.guard("ready") { _, _ in true }
      }
    }
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) { bind in
      bind.guard("ready") { _, _ in true }
      bind.action("log") { _, _ in }
      bind.action("unused") { _, _ in }
    }
    #expect(definition.definitionWarnings == ["action 'unused' is bound but the document does not use it"])
  }

  @Test("a plain target written twice in a list is one transition; code repeating a loaded one adds none")
  func repeatedPlainTargets() throws {
    let text = #"{"states": {"a": {"on": {"go": ["b", "b"], "back": "a"}}, "b": {"on": {"back": "a"}}}}"#
    let loaded = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    func targets(_ definition: StateMachineDefinition<DynamicStateMachine>) throws -> Int {
      try definition.jsonDefinition().components(separatedBy: #""target""#).count - 1
    }
    // a: go -> b (once), back -> a; b: back -> a.
    #expect(try targets(loaded) == 3)
    let repeated = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8), bind: { _ in }) { sm in
      sm.when("go", transitionFrom: "a", to: "b")
      sm.when("go", transitionFrom: "b", to: "a")
    }
    // The repeat of a -> b is dropped; b -> a is new.
    #expect(try targets(repeated) == 4)
    let machine = DynamicStateMachine(repeated)
    #expect(machine.fire("go") && machine.state == "b" && machine.fire("go") && machine.state == "a")
  }

  @Test("a document that fails half-way is not compiled: a join whose target is not a string (a fuzzer finding)")
  func failedLoadIsNotCompiled() {
    // The join is declared before its target is read; compiling that fragment read a missing
    // target and trapped.
    let text = #"{"states": {"a": {"on": {"go": "meet"}}, "meet": {"type": "join", "target": {"h1": {}}}}}"#
    #expect(throws: DefinitionError.invalidJSON("expected a string, found an object", line: 1, column: 77, pointer: "/states/meet/target")) {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    }
  }

  @Test("a state added in code after loading joins the tree the loader checked its references against")
  func stateAddedAfterLoading() throws {
    let text = #"{"states": {"on": {"states": {"idle": {"on": {"go": "busy"}}, "busy": {}}}}}"#
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8), bind: { _ in }) { sm in
      sm.addState("on/paused")
      sm.when("pause", transitionFrom: "on/busy", to: "on/paused")
    }
    #expect(definition.states.contains("on/paused"))
    let machine = DynamicStateMachine(definition)
    #expect(machine.fire("go") && machine.fire("pause"))
    #expect(machine.state == "on/paused")
  }

  @Test("code adds callbacks and transitions by path after loading")
  func codeAfterLoading() throws {
    let counters = TestRecorder()
    let entered = TestRecorder()
    let definition = try load(Self.mediaPlayer, counters: counters) { sm in
      sm.onEntry("on/playing") { _ in entered.increment("entered playing") }
      sm.when("eject", transitionFrom: "on", to: "off")
    }
    let player = DynamicStateMachine(definition)
    #expect(player.fire("power") && player.fire("play"))
    #expect(entered["entered playing"] == 1)
    #expect(player.fire("eject") && player.state == "off")
  }

  @Test(
    "every rule of §7 has a failing document with its message and pointer",
    arguments: [
      (#"{"states": {}}"#, "'states' is empty", "/states"),
      (#"{"initial": "a"}"#, "a definition needs 'states'", ""),
      (#"{"format": "xstate", "states": {"a": {}}}"#, "unknown format 'xstate'; expected 'statemachines/1'", "/format"),
      (#"{"states": {"a": {}}, "extra": 1}"#, "unknown key 'extra'; expected one of description, format, initial, states", "/extra"),
      (#"{"states": {"1a": {}}}"#, "invalid state name '1a': it must start with a letter and hold only letters, digits, '_', '-' and spaces", "/states/1a"),
      (#"{"states": {"a/b": {}}}"#, "invalid state name 'a/b': it must start with a letter and hold only letters, digits, '_', '-' and spaces", "/states/a~1b"),
      (#"{"states": {"a": []}}"#, "expected a state object, found an array", "/states/a"),
      (#"{"states": {"a": {"type": "choice"}}}"#, "unknown state type 'choice'; expected one of atomic, compound, final, history, join, junction, parallel", "/states/a/type"),
      (#"{"states": {"a": {"type": "final", "on": {}}}}"#, "key 'on' is not allowed in a state of type 'final'", "/states/a/on"),
      (#"{"states": {"a": {"type": "parallel"}}}"#, "a parallel state needs 'states'", "/states/a"),
      (#"{"states": {"a": {"states": {}}}}"#, "'states' is empty", "/states/a/states"),
      (#"{"states": {"a": {"initial": "b"}}}"#, "key 'initial' is not allowed in a state of type 'atomic'", "/states/a/initial"),
      (#"{"states": {"a": {"states": {"h": {"type": "history", "history": "medium"}}}}}"#, "unknown history 'medium'; expected shallow or deep", "/states/a/states/h/history"),
      (#"{"states": {"a": {"type": "join"}}}"#, "a join needs a 'target'", "/states/a"),
      (#"{"states": {"a": {"type": "junction"}}}"#, "a junction needs 'paths'", "/states/a"),
      (#"{"states": {"a": {"type": "junction", "paths": []}}}"#, "a junction needs at least one path", "/states/a/paths"),
      (#"{"states": {"a": {"type": "junction", "paths": [{"target": "b"}, {"target": "a"}]}, "b": {}}}"#, "only the last path of a junction may have no guard", "/states/a/paths/0"),
      (#"{"states": {"a": {"on": {"go": {"target": "a", "kind": "sideways"}}}}}"#, "unknown kind 'sideways'; expected external, local or internal", "/states/a/on/go/kind"),
      (#"{"states": {"a": {"on": {"go": {"to": "a"}}}}}"#, "unknown key 'to'; expected one of actions, description, guard, kind, target", "/states/a/on/go/to"),
      (#"{"states": {"a": {"on": {"go": 3}}}}"#, "expected an object, found a number", "/states/a/on/go"),
      (#"{"states": {"a": {"on": {"go": "nowhere"}}}}"#, "'nowhere' names undeclared state 'nowhere'", "/states/a/on/go"),
      (#"{"states": {"a": {"on": {"go": {"target": ["a", "zz"]}}}}}"#, "'zz' names undeclared state 'zz'", "/states/a/on/go/target/1"),
      (#"{"states": {"a": {"on": {"go": "b/x"}}, "b": {}}}"#, "'b/x' names invalid path 'b/x': 'b' has no child 'x'", "/states/a/on/go"),
      (#"{"states": {"a": {"after": [{"target": "a"}]}}}"#, "a timeout needs 'seconds'", "/states/a/after/0"),
      (#"{"states": {"a": {"after": [{"seconds": -1, "target": "a"}]}}}"#, "'seconds' must be positive (and at most 1e9)", "/states/a/after/0/seconds"),
      (#"{"states": {"a": {"on": {"": "a"}}}}"#, "event name is empty", "/states/a/on/"),
      (#"{"states": {"a": {"entry": "x", "on": {"go": "a"}}}}"#, "", ""),
      (#"{"initial": "zz", "states": {"a": {}}}"#, "'zz' names undeclared state 'zz'", "/initial"),
      (#"{"states": {"a": {"onDone": {"target": ["a", "b"]}, "states": {"x": {}}}, "b": {}}}"#, "onDone takes one target", "/states/a/onDone"),
      (#"{"states": {"a": {"type": "junction", "paths": [{"target": ["a", "b"]}]}, "b": {}}}"#, "a junction path needs exactly one target", "/states/a/paths/0"),
      (#"{"states": {"a": {"type": "join", "target": "nowhere"}}}"#, "'nowhere' names undeclared state 'nowhere'", "/states/a/target"),
      (#"{"states": {"a": {"states": {"h": {"type": "history", "target": "zz"}, "b": {}}}}}"#, "'zz' names undeclared state 'zz'", "/states/a/states/h/target"),
      (#"{"states": {"a": {"on": {"go": {"target": "a", "guard": 3}}}}}"#, "expected a string, found a number", "/states/a/on/go/guard"),
      (#"{"states": {"a": {"initial": "zz", "states": {"b": {}}}}}"#, "'zz' names undeclared state 'zz'", "/states/a/initial"),
    ])
  func rules(text: String, message: String, pointer: String) {
    var caught: DefinitionError?
    do { _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) } catch { caught = error }
    if message.isEmpty {
      // An entry action is a name to bind.
      guard case .unboundName("action 'x'", "/states/a/entry", _, _)? = caught else {
        Issue.record("expected an unbound action, got \(String(describing: caught))")
        return
      }
      return
    }
    guard case .invalidJSON(let actual, _, _, let actualPointer)? = caught else {
      Issue.record("expected invalidJSON, got \(String(describing: caught))")
      return
    }
    #expect(actual == message)
    #expect(actualPointer == pointer)
  }

  @Test("states, transitions and names past JSONLimits are errors")
  func formatLimits() {
    func error(_ text: String, _ limits: JSONLimits) -> String? {
      do {
        _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8), limits: limits)
        return nil
      } catch {
        return error.description
      }
    }
    let three = #"{"states": {"a": {"on": {"x": "b", "y": "c"}}, "b": {}, "c": {}}}"#
    #expect(error(three, JSONLimits(maxStates: 2)) == "1:62: more states than the limit of 2 (at '/states/c')")
    #expect(error(three, JSONLimits(maxTransitions: 1)) == "1:41: more transitions than the limit of 1 (at '/states/a/on/y')")
    #expect(error(three, JSONLimits(maxNameBytes: 0))?.contains("state name has 1 bytes, more than the limit of 0") == true)
    #expect(error(three, JSONLimits()) == nil)
  }
}
