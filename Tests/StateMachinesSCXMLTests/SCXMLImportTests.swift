import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// The SCXML import's mapping and its errors (Hierarchy §8, S20): a document that is
/// malformed or uses something unsupported gets a typed error with its line and column, never a
/// crash; what is supported behaves as the Appendix D rules say.
@Suite("SCXML import (§8)", .timeLimit(.minutes(1)))
struct SCXMLImportTests {
  static func document(_ body: String, attributes: String = "") -> Data {
    Data(
      """
      <?xml version="1.0"?>
      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" \(attributes)>
      \(body)
      </scxml>
      """.utf8)
  }

  /// The error an import throws, or `nil`.
  static func importError(_ data: Data, bind: (inout Bindings<DynamicStateMachine>) -> Void = { _ in }) -> DefinitionError? {
    do {
      _ = try DynamicStateMachine(scxml: data, bind: bind)
      return nil
    } catch {
      return error
    }
  }

  @Test("nested states, a parallel state and a fork map to paths; the configuration follows")
  func structure() throws {
    let machine = try DynamicStateMachine(
      scxml: Self.document(
        """
        <state id="off"><transition event="power" target="left2 right2"/></state>
        <parallel id="on">
          <state id="left"><state id="left1"/><state id="left2"/></state>
          <state id="right"><state id="right1"/><state id="right2"/></state>
          <transition event="power" target="off"/>
        </parallel>
        """))
    #expect(machine.state == "off")
    #expect(machine.fire("power"))
    #expect(machine.state == "on/left/left2,on/right/right2")
    #expect(machine.isInState("on") && machine.isInState("left2"))
    #expect(machine.fire("power"))
    #expect(machine.state == "off")
  }

  @Test("raise is internal (before the rest of the step), send without delay external (after it) (S13)")
  func raiseAndSend() throws {
    let machine = try DynamicStateMachine(
      scxml: Self.document(
        """
        <state id="a">
          <transition event="go" target="b">
            <send event="external"/>
            <raise event="internal"/>
          </transition>
        </state>
        <state id="b">
          <transition event="internal" target="c"/>
          <transition event="external" target="wrong"/>
        </state>
        <state id="c"><transition event="external" target="d"/></state>
        <state id="d"/>
        <state id="wrong"/>
        """))
    #expect(machine.fire("go"))
    #expect(machine.state == "d")
  }

  @Test("a delayed send arrives on the machine's clock")
  func delayedSend() async throws {
    let clock = ManualClock()
    let machine = try DynamicStateMachine(
      scxml: Self.document(
        """
        <state id="a"><transition event="go" target="b"><send event="later" delay="1.5s"/></transition></state>
        <state id="b"><transition event="later" target="c"/></state>
        <state id="c"/>
        """), clock: clock)
    #expect(machine.fire("go"))
    await clock.advance(by: .seconds(1))
    #expect(machine.state == "b")
    await clock.advance(by: .seconds(1))
    #expect(machine.state == "c")
  }

  @Test("a cond outside the subset is looked up in the bindings; so is an unknown executable element")
  func bindings() throws {
    let log = Log()
    let machine = try DynamicStateMachine(
      scxml: Self.document(
        """
        <state id="a">
          <transition event="go" cond="ready" target="b"><script>record()</script></transition>
        </state>
        <state id="b"/>
        """),
      bind: { bind in
        bind.guard("ready") { _, _ in log.ready }
        bind.action("record()") { _, _ in log.count += 1 }
      })
    #expect(!machine.fire("go"))
    log.ready = true
    #expect(machine.fire("go"))
    #expect(log.count == 1)
  }

  @Test("In(), !, && and || are evaluated by the import")
  func conditions() throws {
    let machine = try DynamicStateMachine(
      scxml: Self.document(
        """
        <parallel id="p">
          <state id="r1"><state id="x"><transition event="t" target="y" cond="In('q') || (!In('x') &amp;&amp; true)"/></state><state id="y"/></state>
          <state id="r2"><state id="q"/></state>
        </parallel>
        """))
    #expect(machine.fire("t"))
    #expect(machine.isInState("y"))
  }

  @Test("malformed XML is an error at its line and column")
  func malformed() {
    let error = Self.importError(Data("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"a\">\n</scxml>".utf8))
    guard case .invalidDocument(let message, let line, _)? = error else {
      Issue.record("expected invalidDocument, got \(String(describing: error))")
      return
    }
    #expect(message.contains("malformed XML"))
    #expect(line >= 2)
  }

  @Test(
    "unsupported or unresolvable input names its element and position",
    arguments: [
      ("<state id=\"a\"><transition event=\"e\" target=\"nowhere\"/></state>", "no state has id 'nowhere'", 3),
      ("<state id=\"a\"><transition event=\"e\" cond=\"x > 1\"/></state>", "cond 'x > 1'", 3),
      ("<state id=\"a\"><onentry><assign location=\"x\" expr=\"1\"/></onentry></state>", "<assign> is not supported", 3),
      ("<state id=\"a\"/><state id=\"a\"/>", "id 'a' is declared twice", 3),
      ("<state id=\"a/b\"/>", "contains '/'", 3),
      ("<state id=\"a\"><invoke src=\"x\"/></state>", "invocation 'x' is not bound", 3),
      ("<state id=\"a\"><onentry><send event=\"e\" target=\"http://x\"/></onentry></state>", "target='http://x'", 3),
      ("<state id=\"a\"><onentry><send event=\"e\" delay=\"soon\"/></onentry></state>", "delay 'soon'", 3),
      ("<datamodel><data id=\"x\"/></datamodel><state id=\"a\"/>", "<data> is not supported", 3),
    ])
  func unsupported(body: String, expected: String, line: Int) {
    let error = Self.importError(Self.document(body))
    guard case .invalidDocument(let message, let errorLine, let column)? = error else {
      Issue.record("expected invalidDocument for \(body), got \(String(describing: error))")
      return
    }
    #expect(message.contains(expected), "\(message)")
    #expect(errorLine == line)
    #expect(column >= 1)
  }

  @Test("a document without scxml root or states is rejected")
  func wrongRoot() {
    #expect(Self.importError(Data("<html/>".utf8)) != nil)
    #expect(Self.importError(Self.document("")) != nil)
    #expect(Self.importError(Data()) != nil)
  }

  @Test("a structural error found after the import is a DefinitionError naming the culprit (S20), at its element")
  func structural() {
    let error = Self.importError(
      Self.document(
        """
        <state id="s"><state id="a"/><state id="b"/></state>
        <state id="t"><transition event="e" target="a b"/></state>
        """))
    guard case .located(.invalidStructure(let message), let locations)? = error else {
      Issue.record("expected a located invalidStructure, got \(String(describing: error))")
      return
    }
    #expect(message == "transition 'e': 's/a' and 's/b' are not in distinct regions of one parallel state")
    // The <transition> (where the parser places an element: the end of its start tag).
    #expect(locations == [DefinitionLocation(line: 4, column: 49)])
  }

  @Test("a repeated transition, which the definition drops, does not shift the location of a later culprit")
  func locatedAfterARepeat() {
    let error = Self.importError(
      Self.document(
        """
        <state id="s"><state id="a"/><state id="b"/></state>
        <state id="t"><transition event="e" target="a"/><transition event="e" target="a"/>
        <transition event="f" target="a b"/></state>
        """))
    guard case .located(.invalidStructure, let locations)? = error else {
      Issue.record("expected a located invalidStructure, got \(String(describing: error))")
      return
    }
    #expect(locations.map(\.line) == [5])
  }

  @Test("In() stays the import's own condition when every unknown name is bound (the command-line tool)")
  func builtInConditionsBeforeFallbackBindings() throws {
    let data = Self.document(
      """
      <parallel id="p">
        <state id="engine" initial="idle">
          <state id="idle"><transition cond="In('closed')" target="cooking"/></state>
          <state id="cooking"><transition event="open" target="idle"/></state>
        </state>
        <state id="door" initial="closed">
          <state id="closed"><transition event="open" target="opened"/></state>
          <state id="opened"/>
        </state>
      </parallel>
      """)
    let machine = try DynamicStateMachine(scxml: data) { bind in
      bind.bindUnknownNames(guard: { _ in { _, _ in true } }, action: { _ in { _, _ in } })
    }
    #expect(machine.state == "p/engine/cooking,p/door/closed")
    #expect(machine.fire("open"))
    #expect(machine.state == "p/engine/idle,p/door/opened")
  }
}

/// Shared mutable test state.
final class Log: @unchecked Sendable {
  var ready = false
  var count = 0
}
