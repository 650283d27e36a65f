import Foundation
import Testing

/// `statemachine paths`: the shortest path to every configuration, or a transition cover, as
/// text or as the JSON other tools read (one array of paths, each `{"steps": [...]}`, the first
/// step `{"event": null, "configuration": [...]}`).
@Suite("statemachine paths", .timeLimit(.minutes(1)))
struct PathsToolTests {
  static let order = #"""
    {
      "format": "statemachines/1",
      "initial": "awaitingPayment",
      "states": {
        "awaitingPayment": { "on": { "pay": "paid", "cancel": "cancelled" } },
        "paid": { "on": { "ship": { "target": "shipped", "guard": "shippable" }, "cancel": "cancelled" } },
        "shipped": {},
        "cancelled": { "type": "final" }
      }
    }
    """#

  static let microwave = """
    <?xml version="1.0"?>
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="oven">
      <parallel id="oven">
        <state id="engine" initial="off">
          <state id="off"><transition event="turn.on" target="cooking"/></state>
          <state id="cooking"><transition event="turn.off" target="off"/></state>
        </state>
        <state id="door" initial="closed">
          <state id="closed"><transition event="open" target="opened"/></state>
          <state id="opened"><transition event="close" target="closed" cond="In('off')"/></state>
        </state>
      </parallel>
    </scxml>
    """

  /// The initial state raises an event on entry and leaves on it: the first macrostep ends in
  /// s4/s12.
  static let raisesOnEntry = """
    <?xml version="1.0"?>
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s1">
      <state id="s1" initial="s11">
        <state id="s11">
          <onentry><raise event="go.left"/></onentry>
          <transition event="go.left" target="s12"/>
        </state>
      </state>
      <state id="s4" initial="s12">
        <state id="s12"><transition event="back" target="s11"><log expr="'back'"/></transition></state>
      </state>
    </scxml>
    """

  @Test("a raise on entry is part of the start: paths start where the first macrostep ends, and go.left is no step")
  func raisedEventsArePartOfTheStep() async throws {
    let output = try await InvokeToolTests.tool(["paths", "--json", "--cover", "transitions"], text: Self.raisesOnEntry, fileExtension: "scxml")
    #expect(output.status == 0, "\(output.stderr)")
    let paths = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
    let steps = paths.flatMap { $0["steps"] as? [[String: Any]] ?? [] }
    #expect(!paths.isEmpty)
    for path in paths {
      let first = try #require((path["steps"] as? [[String: Any]])?.first)
      #expect(first["configuration"] as? [String] == ["s12"])
    }
    #expect(!steps.contains { $0["event"] as? String == "go.left" })
    // `back` re-enters s11, whose raise leads back to s12 within the same step.
    #expect(steps.contains { $0["event"] as? String == "back" && $0["configuration"] as? [String] == ["s12"] })
    #expect(!output.stderr.contains("never reached"), "\(output.stderr)")
  }

  @Test("an action bound by name is reported as code the explorer does not run")
  func boundActionsAreReported() async throws {
    let chart = #"{"states": {"a": {"on": {"go": {"target": "b", "actions": ["notify", {"raise": "done"}]}}}, "b": {"on": {"done": "a"}}}}"#
    let output = try await InvokeToolTests.tool(["paths", "--cover", "transitions"], text: chart)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stderr.contains("warning: the explorer does not run the action of a –go→ b (code)"), "\(output.stderr)")
    // The declared raise is run: `go` ends back in a, and b –done→ a is taken inside that step.
    #expect(output.stdout.contains("–go→ a"), "\(output.stdout)")
    #expect(!output.stderr.contains("never reached"), "\(output.stderr)")
  }

  @Test("--json: the shortest path to every configuration, in the shape other tools read")
  func jsonShape() async throws {
    let output = try await InvokeToolTests.tool(["paths", "--json"], text: Self.order)
    #expect(output.status == 0, "\(output.stderr)")
    let paths = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
    let steps = paths.map { path in
      (path["steps"] as? [[String: Any]] ?? []).map { step -> String in
        let event = step["event"] as? String ?? "null"
        let configuration = (step["configuration"] as? [String] ?? []).joined(separator: ",")
        return "\(event):\(configuration)"
      }
    }
    #expect(steps == [
      ["null:awaitingPayment"],
      ["null:awaitingPayment", "pay:paid"],
      ["null:awaitingPayment", "cancel:cancelled"],
      ["null:awaitingPayment", "pay:paid", "ship:shipped"],
    ])
    #expect(paths.allSatisfy { ($0["steps"] as? [[String: Any]])?.first?["event"] is NSNull })
  }

  @Test("SCXML: ids, In() evaluated (the door closes only while the engine is off), every transition covered")
  func scxmlCover() async throws {
    let output = try await InvokeToolTests.tool(
      ["paths", "--cover", "transitions"], text: Self.microwave, fileExtension: "scxml")
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stderr.isEmpty)
    let text = output.stdout
    for event in ["turn.on", "turn.off", "open", "close"] { #expect(text.contains("–\(event)→"), "\(text)") }
    #expect(!text.contains("–close→ closed, cooking"), "In('off') is evaluated: \(text)")
    let states = try await InvokeToolTests.tool(["paths", "--json"], text: Self.microwave, fileExtension: "scxml")
    #expect(states.stdout.hasPrefix(#"[{"steps":[{"configuration":["closed","off"],"event":null}]}"#), "\(states.stdout)")
  }

  @Test("a file that does not load: the loader's error, exit status 1")
  func badFile() async throws {
    let output = try await InvokeToolTests.tool(["paths"], text: "{ not json")
    #expect(output.status == 1)
    #expect(output.stderr.contains("error"))
  }
}
