import Foundation
import StateMachines
import Testing

/// TBStateMachine's JSON format as a second input (Hierarchy §7, §10): detected by its shape,
/// its fixtures' builder scenarios B1–B3, and its load-time exceptions as `DefinitionError`s.
@Suite("TBStateMachine JSON (§7, §10)")
struct TBJSONTests {
  func load(_ text: String) throws(DefinitionError) -> DynamicStateMachine {
    try DynamicStateMachine(json: Data(text.utf8))
  }

  func error(_ text: String) -> DefinitionError? {
    do {
      _ = try load(text)
      return nil
    } catch {
      return error
    }
  }

  @Test("B1: simple.json, a_b, b_c, c_a", .enabled(if: SharedFixtures.hasTBFixtures, "needs ../shared/tbstatemachine-fixtures"))
  func b1() throws {
    let machine = try DynamicStateMachine(json: SharedFixtures.tbFixture("simple.json")!)
    #expect(machine.state == "a")
    #expect(machine.fire("a_b") && machine.fire("b_c") && machine.fire("c_a"))
    #expect(machine.state == "a")
  }

  @Test("B2: nested.json, a1_a2, a_local, a1_b, b11_c; c_internal is internal", .enabled(if: SharedFixtures.hasTBFixtures, "needs ../shared/tbstatemachine-fixtures"))
  func b2() throws {
    let entries = TestRecorder()
    let machine = try DynamicStateMachine(json: SharedFixtures.tbFixture("nested.json")!, bind: { _ in }) { sm in
      for state in ["a", "a1", "a2", "b", "c"] { sm.onEntry(state) { _ in entries.append(state) } }
    }
    #expect(machine.state == "a/a1")
    #expect(machine.fire("a1_a2") && machine.state == "a/a2")
    entries.clear()
    // Local from a to its child: a is not exited (S10).
    #expect(machine.fire("a_local") && machine.state == "a/a1" && entries.lines == ["a1"])
    #expect(machine.fire("a1_b") && machine.state == "b@0/b11,b@1/b21")
    #expect(machine.fire("b11_c") && machine.state == "c")
    entries.clear()
    #expect(machine.fire("c_internal") && machine.state == "c" && entries.lines.isEmpty)
  }

  @Test("B3: pseudo.json, fork_b then the join b11_join, b21_join into c", .enabled(if: SharedFixtures.hasTBFixtures, "needs ../shared/tbstatemachine-fixtures"))
  func b3() throws {
    let machine = try DynamicStateMachine(json: SharedFixtures.tbFixture("pseudo.json")!)
    #expect(machine.fire("fork_b") && machine.state == "b@0/b11,b@1/b21")
    #expect(machine.fire("b11_join") && machine.state == "b@0/b11,b@1/b21")
    #expect(machine.fire("b21_join") && machine.state == "c")
  }

  @Test("statemachine.json loads with TB's names: anonymous regions as p@i (N3)", .enabled(if: SharedFixtures.hasTBFixtures, "needs ../shared/tbstatemachine-fixtures"))
  func nestedFixture() throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: SharedFixtures.tbFixture("statemachine.json")!)
    #expect(definition.states.contains("b/b3@0/b311"))
    #expect(definition.states.contains("c/c2@1/c222"))
    #expect(definition.initialState == "a")
    #expect(DynamicStateMachine(definition).state == "a/a1")
  }

  /// A small TB document of our own, so that the format is tested everywhere.
  static let ownDocument = """
    {"name": "own", "states": [
      {"name": "idle", "type": "state"},
      {"name": "work", "type": "sub", "states": [{"name": "prep", "type": "state"}, {"name": "run", "type": "state"}]},
      {"name": "both", "type": "parallel", "regions": [[{"name": "l1", "type": "state"}, {"name": "l2", "type": "state"}], [{"name": "r1", "type": "state"}]]}],
     "transitions": [
      {"type": "simple", "kind": "external", "name": "start", "source": "idle", "target": "work/run"},
      {"type": "simple", "kind": "local", "name": "reset", "source": "work", "target": "work/prep"},
      {"type": "compound", "name": "split", "vertices": {"incoming": [{"source": "work", "name": "split"}], "outgoing": [{"target": "both@0/l2"}, {"target": "both@1/r1"}]}, "pseudo_state": {"type": "fork", "name": "f", "region": "both"}},
      {"type": "compound", "name": "merge", "vertices": {"incoming": [{"source": "both@0/l2", "name": "left"}, {"source": "both@1/r1", "name": "right"}], "outgoing": [{"target": "idle"}]}, "pseudo_state": {"type": "join", "name": "j", "region": "both"}}
     ]}
    """

  @Test("our own TB document: nesting, local, fork and join")
  func ownDocument() throws {
    let machine = try load(Self.ownDocument)
    #expect(machine.state == "idle")
    #expect(machine.fire("start") && machine.state == "work/run")
    #expect(machine.fire("reset") && machine.state == "work/prep")
    #expect(machine.fire("split") && machine.state == "both@0/l2,both@1/r1")
    #expect(machine.fire("left") && machine.fire("right") && machine.state == "idle")
  }

  @Test(
    "TBStateMachine's load-time exceptions are DefinitionErrors with the culprit's pointer",
    arguments: [
      (#"{"states": [{"name": "", "type": "state"}]}"#, "state name is empty", "/states/0/name"),
      (#"{"states": [{"name": "a", "type": "state"}, {"name": "b", "type": "state"}], "transitions": [{"type": "simple", "kind": "internal", "name": "x", "source": "a", "target": "b"}]}"#,
       "an internal transition must target its source ('a', not 'b')", "/transitions/0"),
      (#"{"states": [{"name": "p", "type": "parallel"}]}"#, "a parallel state needs 'regions'", "/states/0"),
      (#"{"states": [{"name": "p", "type": "parallel", "regions": []}]}"#, "a parallel state needs at least one region", "/states/0/regions"),
      (#"{"states": [{"name": "a", "type": "state"}, {"name": "p", "type": "parallel", "regions": [[{"name": "x", "type": "state"}], [{"name": "y", "type": "state"}]]}], "transitions": [{"type": "compound", "name": "f", "vertices": {"incoming": [{"source": "a", "name": "f"}], "outgoing": [{"target": "p@0/x"}, {"target": "a"}]}, "pseudo_state": {"type": "fork", "name": "fk", "region": "p"}}]}"#,
       "'a' is not in region 'p'", "/transitions/0/vertices/outgoing/1"),
      (#"{"states": [{"name": "a", "type": "state"}, {"name": "p", "type": "parallel", "regions": [[{"name": "x", "type": "state"}], [{"name": "y", "type": "state"}]]}], "transitions": [{"type": "compound", "name": "j", "vertices": {"incoming": [{"source": "a", "name": "e"}], "outgoing": [{"target": "a"}]}, "pseudo_state": {"type": "join", "name": "jn", "region": "p"}}]}"#,
       "'a' is not in region 'p'", "/transitions/0/vertices/incoming/0"),
      (#"{"states": [{"name": "a", "type": "state"}], "transitions": [{"type": "compound", "name": "j", "vertices": {"incoming": [{"source": "a", "name": "e"}], "outgoing": [{"target": "a"}]}, "pseudo_state": {"type": "junction", "name": "jx"}}]}"#,
       "junction 'jx': a junction path needs a guard, which JSON cannot give; add the junction in code", "/transitions/0/pseudo_state"),
      (#"{"states": [{"name": "a", "type": "state"}], "transitions": [{"type": "simple", "kind": "external", "name": "x", "source": "a", "target": "c/c2/c222"}]}"#,
       "'c/c2/c222' names invalid path 'c/c2/c222': 'the root' has no child 'c'", "/transitions/0/target"),
      (#"{"states": [{"name": "a", "type": "box"}]}"#, "unknown state type 'box'; expected state, sub or parallel", "/states/0/type"),
      (#"{"states": [{"name": "a", "type": "state"}], "transitions": [{"type": "simple", "kind": "sideways", "name": "x", "source": "a", "target": "a"}]}"#,
       "unknown kind 'sideways'; expected external, local or internal", "/transitions/0/kind"),
      (#"{"states": [{"name": "a/b", "type": "state"}]}"#, "state name 'a/b' contains '/', '@' or ',', which separate path components", "/states/0/name"),
      (#"{"states": [{"name": "a", "type": "state", "extra": 1}]}"#, "unknown key 'extra'; expected one of name, regions, states, type", "/states/0/extra"),
    ])
  func exceptions(text: String, message: String, pointer: String) {
    guard case .invalidJSON(let actual, _, _, let actualPointer)? = error(text) else {
      Issue.record("expected invalidJSON, got \(String(describing: error(text)))")
      return
    }
    #expect(actual == message)
    #expect(actualPointer == pointer)
  }

  @Test("the bad paths of N22 are rejected with their pointer", arguments: ["c/c2/c222", "c/c2@5/c222", "c/c2@-1/c222", "c/c1/c222", "c/c1/c222/cFoobar"])
  func badPaths(path: String) {
    let text = """
      {"states": [{"name": "a", "type": "state"}, {"name": "c", "type": "sub", "states": [{"name": "c1", "type": "state"},
        {"name": "c2", "type": "parallel", "regions": [[{"name": "c211", "type": "state"}], [{"name": "c222", "type": "state"}]]}]}],
       "transitions": [{"type": "simple", "kind": "external", "name": "x", "source": "a", "target": "\(path)"}]}
      """
    guard case .invalidJSON(let message, _, _, "/transitions/0/target")? = error(text) else {
      Issue.record("expected an error at /transitions/0/target for \(path), got \(String(describing: error(text)))")
      return
    }
    #expect(message.contains("invalid path '\(path)'"))
  }
}

