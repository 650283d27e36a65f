import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// What the SCXML harness of `Tools/Fuzz` found (Hierarchy §9.3), kept as tests.
@Suite("SCXML import: fuzzer findings", .timeLimit(.minutes(1)))
struct SCXMLFuzzRegressionTests {
  @Test("invalid UTF-8 in an element name is a typed error, not a trap in FoundationXML")
  func invalidUTF8() {
    var bytes = Array(#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">"#.utf8)
    bytes += Array("\n  <state id=\"s\"><onentry><send".utf8) + [0xC8] + Array(#" event="tick"/></onentry></state></scxml>"#.utf8)
    #expect(throws: DefinitionError.invalidDocument("the document is not valid UTF-8", line: 2, column: 31)) {
      _ = try DynamicStateMachine(scxml: Data(bytes))
    }
  }

  @Test("a processing instruction is a typed error, not a crash in FoundationXML; the XML declaration is fine")
  func processingInstruction() throws {
    let crashing = "<?xmll?>\n<scxml 4\0lnr>\n  <st=a"
    #expect(throws: DefinitionError.invalidDocument("processing instructions are not supported", line: 1, column: 1)) {
      _ = try DynamicStateMachine(scxml: Data(crashing.utf8))
    }
    let inside = #"<?xml version="1.0"?><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><?pi?><state id="a"/></scxml>"#
    #expect(throws: DefinitionError.invalidDocument("processing instructions are not supported", line: 1, column: 83)) {
      _ = try DynamicStateMachine(scxml: Data(inside.utf8))
    }
    let fine = #"<?xml version="1.0"?><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"/></scxml>"#
    #expect(try DynamicStateMachine(scxml: Data(fine.utf8)).state == "a")
    // A malformed declaration used to be skipped to the next `?>`, which hid the instruction
    // after it (a segmentation fault in FoundationXML).
    let hidden = "<?xml li&a0\">\n <tat<?xc?>d"
    #expect(throws: DefinitionError.invalidDocument("processing instructions are not supported", line: 2, column: 6)) {
      _ = try DynamicStateMachine(scxml: Data(hidden.utf8))
    }
    // Comments and CDATA sections are not exempt: after a syntax error libxml2 may not read them
    // as such.
    let commented = #"<?xml version="1.0"?><!-- <?x?> --><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"/></scxml>"#
    #expect(throws: DefinitionError.invalidDocument("processing instructions are not supported", line: 1, column: 27)) {
      _ = try DynamicStateMachine(scxml: Data(commented.utf8))
    }
  }

  @Test("a delay too large for a Duration is a typed error, not a trap; 1e9 s is the longest", arguments: [
    "199999999999999999999999999999999999999999999999999999999999999999s", "inf s", "infs", "1e10s", "1000000000001ms",
  ])
  func hugeDelay(delay: String) async throws {
    func document(_ delay: String) -> Data {
      Data(
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="s"><onentry><send event="tick" delay="\(delay)"/></onentry><transition event="tick" target="t"/></state>
          <state id="t"/>
        </scxml>
        """.utf8)
    }
    #expect(
      throws: DefinitionError.invalidDocument(
        // FoundationXML places an element at the end of its start tag.
        "delay '\(delay)' is not a duration such as 10ms or 2.5s, of at most 1e9 s", line: 2, column: 53 + delay.count)
    ) {
      _ = try DynamicStateMachine(scxml: document(delay))
    }
    let clock = ManualClock()
    let longest = try DynamicStateMachine(scxml: document("1000000000s"), clock: clock)
    try longest.startStateMachine()
    await clock.advance(by: .seconds(999_999_999))
    #expect(longest.state == "s")
    await clock.advance(by: .seconds(1))
    #expect(longest.state == "t")
  }

  @Test("an event sent with a delay does not keep the definition alive (a leak on a ManualClock)")
  func delayedSendDoesNotRetainTheDefinition() throws {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
        <state id="s"><onentry><send event="tick" delay="1s"/></onentry><transition event="tick" target="t"/></state>
        <state id="t"/>
      </scxml>
      """
    weak var weakDefinition: StateMachineDefinition<DynamicStateMachine>?
    weak var weakMachine: DynamicStateMachine?
    let clock = ManualClock()
    do {
      let definition = try StateMachineDefinition<DynamicStateMachine>(scxml: Data(text.utf8), clock: clock)
      let machine = DynamicStateMachine(definition)
      try machine.startStateMachine()
      #expect(machine.state == "s")
      weakDefinition = definition
      weakMachine = machine
    }
    #expect(weakMachine == nil)
    #expect(weakDefinition == nil)
  }

  /// The harness's timeout: `y1` raises `r` on entry and `r` re-enters `y1`, so every event in the
  /// parallel state runs to the cap. Under AddressSanitizer the default 10,000 steps took over a
  /// second; the harness now lowers the cap through the `build` step.
  static let raiseLoop = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" datamodel="null">
      <state id="a" initial="a1">
        <state id="a1"><transition event="go" target="a2"/></state>
        <state id="a2"><transition cond="In('a2')" target="p"/></state>
        <history id="h" type="deep"><transition target="a1"/></history>
      </state>
      <parallel id="p">
        <state id="x"><state id="x1"><transition event="done" target="xf"/></state><final id="xf"/></state>
        <state id="y"><state id="y1"><onentry><raise event="r"/></onentry><transition event="r" target="y1"/></state><state id="y2"/></state>
        <transition event="back" target="h"/>
      </parallel>
      <final id="end"/>
    </scxml>
    """

  @Test("a raise loop stops at the run-to-completion cap set in the build step, in a legal configuration")
  func raiseLoopStopsAtTheCap() throws {
    let log = LogLines()
    let definition = try StateMachineDefinition<DynamicStateMachine>(scxml: Data(Self.raiseLoop.utf8), bind: { _ in }) { sm in
      sm.maxStepsPerRunToCompletion = 50
      sm.log = StateMachineLog { log.append($0) }
    }
    let machine = DynamicStateMachine(definition)
    try machine.startStateMachine()
    #expect(machine.state == "a/a1")
    #expect(machine.fire("go"))
    #expect(log.lines.contains { $0.contains("stopped after 50 steps") })
    #expect(machine.state == "p/x/x1,p/y/y1")
    // Back through the deep history, which recorded a2: its eventless transition enters p again
    // (S12, S15), and the loop stops at the cap again.
    log.lines.removeAll()
    #expect(machine.fire("back"))
    #expect(log.lines.contains { $0.contains("stopped after 50 steps") })
    #expect(machine.state == "p/x/x1,p/y/y1")
  }

  /// The harness's second timeout: `s` sends `ping.x` on entry, the `ping` descriptor matches it
  /// by prefix and leads to `t`, whose eventless transition enters `s` again. Every event then
  /// runs to the cap; at the harness's former 500 steps the nine runs took over a second on a
  /// busy machine, under AddressSanitizer.
  @Test("a send loop through an eventless transition stops at the cap, in a legal configuration")
  func sendLoopStopsAtTheCap() throws {
    let text = """
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
        <state id="s"><onentry><send event="ping.x"/></onentry><transition event="go ping" target="t"/></state>
        <state id="t"><transition target="s"/></state>
      </scxml>
      """
    let log = LogLines()
    let definition = try StateMachineDefinition<DynamicStateMachine>(scxml: Data(text.utf8), bind: { _ in }) { sm in
      sm.maxStepsPerRunToCompletion = 40
      sm.log = StateMachineLog { log.append($0) }
    }
    let machine = DynamicStateMachine(definition)
    // Starting runs the loop already: the start reports the cap as its error, and the machine
    // is left in `s`, where the last complete macrostep ended.
    #expect(throws: StateMachineError.self) { try machine.startStateMachine() }
    #expect(log.lines.contains { $0.contains("stopped after 40 steps") })
    #expect(machine.state == "s")
    log.lines.removeAll()
    #expect(machine.fire("go"))
    #expect(log.lines.contains { $0.contains("stopped after 40 steps") })
    #expect(machine.state == "s")
  }
}

/// Log lines collected from a machine (the log's closure is `@Sendable`).
private final class LogLines: @unchecked Sendable {
  var lines: [String] = []
  func append(_ line: String) { lines.append(line) }
}
