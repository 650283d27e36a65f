import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// What the SCXML harness of `Tools/Fuzz` found (issue 9), kept as tests.
@Suite("SCXML import: fuzzer findings")
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
    let fine = #"<?xml version="1.0"?><!-- <?x?> --><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a"/></scxml>"#
    #expect(try DynamicStateMachine(scxml: Data(fine.utf8)).state == "a")
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
}
