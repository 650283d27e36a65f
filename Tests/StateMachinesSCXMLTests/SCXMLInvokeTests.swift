import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// `<invoke>` in the SCXML import (Invoke A.5). The W3C invoke tests need the ECMAScript data
/// model, so these fixtures mirror them with the null data model and stub work bound by name:
/// 422 (a state passed through in the macrostep starts no work), 235/236 (the done event, and
/// nothing after it), 237 (exit cancels), 252 (no event after the cancel).
@Suite("SCXML <invoke> (Invoke A.5)", .timeLimit(.minutes(1)))
struct SCXMLInvokeTests {
  /// What the stub work saw and did, across threads.
  final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    private var contexts: [InvocationContext<(any Sendable)?>] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
    func keep(_ context: InvocationContext<(any Sendable)?>) { lock.withLock { contexts.append(context) } }
    var kept: [InvocationContext<(any Sendable)?>] { lock.withLock { contexts } }
  }

  static func machine(_ body: String, bind: (inout Bindings<DynamicStateMachine>) -> Void) throws -> DynamicStateMachine {
    try DynamicStateMachine(scxml: SCXMLImportTests.document(body), bind: bind)
  }

  /// Work that runs until cancelled, logging its id when it starts and when it is cancelled.
  static func endless(_ log: Log) -> (inout Bindings<DynamicStateMachine>) -> Void {
    { bind in
      bind.invocation("endless") { context in
        log.append("start \(context.id)")
        do {
          try await Task.sleep(for: .seconds(3600))
        } catch {
          log.append("cancelled \(context.id)")
          // W3C 252: what the work sends once cancelled is not delivered.
          let delivered = await context.send("childEvent")
          log.append("sent after cancel: \(delivered)")
          throw error
        }
      }
    }
  }

  @Test("W3C 422 / I2: only states entered and still active when the macrostep ends start their invokes, in document order")
  func macrostepEnd() async throws {
    let log = Log()
    let machine = try Self.machine(
      """
      <state id="s1" initial="s11">
        <invoke id="outer" src="endless"/>
        <state id="s11">
          <invoke id="passed" src="endless"/>
          <transition target="s12"/>
        </state>
        <state id="s12">
          <invoke id="kept" src="endless"/>
          <invoke src="endless"/>
        </state>
        <transition event="stop" target="done"/>
      </state>
      <final id="done"/>
      """, bind: Self.endless(log))
    try machine.startStateMachine()
    #expect(machine.state == "s1/s12")
    // The absent id is `<state id>.<n>` (W3C 224's form), n counting the state's invokes.
    #expect(machine.activeInvocations.map(\.id) == ["outer", "kept", "s12.1"])
    #expect(machine.invocationStatistics.started == 3)
    #expect(machine.fire("stop"))
    await machine.waitForInvocations()
    #expect(!log.all.contains("start passed"))
    #expect(machine.invocationStatistics.delivered == 0)
  }

  @Test("W3C 235, 236 / I6: done.invoke.<id> takes the transition written for it; nothing is delivered after it")
  func doneEventThenNothing() async throws {
    let log = Log()
    let machine = try Self.machine(
      """
      <state id="s0">
        <invoke id="foo" type="stub"/>
        <transition event="childToParent"><raise event="heard"/></transition>
        <transition event="heard"><log expr="'heard'"/></transition>
        <transition event="done.invoke.foo" target="s1"/>
      </state>
      <state id="s1">
        <transition event="childToParent" target="fail"/>
        <transition event="done.invoke.foo" target="fail"/>
      </state>
      <final id="fail"/>
      """,
      bind: { bind in
        bind.invocation("stub") { context in
          log.keep(context)
          let heard = await context.send("childToParent")
          log.append("sent before done: \(heard)")
          return "result"
        }
      })
    try machine.startStateMachine()
    await machine.waitForInvocations()
    #expect(machine.state == "s1")
    #expect(log.all == ["sent before done: true"])
    // W3C 236: once its done event is delivered, the invocation sends nothing more.
    let context = try #require(log.kept.first)
    #expect(await context.send("childToParent") == false)
    #expect(machine.state == "s1")
    #expect(machine.invocationStatistics.delivered == 1)
  }

  @Test("W3C 237, 252 / I8: leaving the state cancels the work; what it sends afterwards and its error are not delivered")
  func exitCancels() async throws {
    let log = Log()
    let machine = try Self.machine(
      """
      <state id="s0">
        <invoke id="foo" src="endless"/>
        <transition event="leave" target="s1"/>
      </state>
      <state id="s1">
        <transition event="childEvent" target="fail"/>
        <transition event="error.invoke.foo" target="fail"/>
      </state>
      <final id="fail"/>
      """, bind: Self.endless(log))
    try machine.startStateMachine()
    #expect(machine.activeInvocations.map(\.id) == ["foo"])
    #expect(machine.fire("leave"))
    #expect(machine.activeInvocations.isEmpty)
    await machine.waitForInvocations()
    #expect(machine.state == "s1")
    #expect(log.all.contains("cancelled foo"))
    #expect(log.all.contains("sent after cancel: false"))
    #expect(machine.invocationStatistics.delivered == 0)
  }

  @Test("error.invoke.<id> written in the invoking state takes a throwing work's error; a targetless one runs its content")
  func errorTransition() async throws {
    struct Broken: Error {}
    let machine = try Self.machine(
      """
      <state id="s0">
        <invoke id="foo" src="broken"/>
        <transition event="error.invoke.foo"><raise event="failed"/></transition>
        <transition event="failed" target="s1"/>
      </state>
      <state id="s1"/>
      """, bind: { bind in bind.invocation("broken") { _ in throw Broken() } })
    try machine.startStateMachine()
    await machine.waitForInvocations()
    #expect(machine.state == "s1")
  }

  @Test(
    "what the null data model cannot do in <invoke> is an error at its line",
    arguments: [
      (#"<state id="a"><invoke srcexpr="x"/></state>"#, "<invoke srcexpr> is not supported", 3),
      (#"<state id="a"><invoke typeexpr="x"/></state>"#, "<invoke typeexpr> is not supported", 3),
      (#"<state id="a"><invoke src="w" idlocation="x"/></state>"#, "<invoke idlocation> is not supported", 3),
      (#"<state id="a"><invoke src="w" namelist="x"/></state>"#, "<invoke namelist> is not supported", 3),
      ("<state id=\"a\"><invoke src=\"w\">\n<param name=\"x\" expr=\"1\"/></invoke></state>", "<param> is not supported in <invoke>", 4),
      ("<state id=\"a\"><invoke src=\"w\">\n<content/></invoke></state>", "<content> is not supported in <invoke>", 4),
      ("<state id=\"a\"><invoke src=\"w\">\n<finalize/></invoke></state>", "<finalize> is not supported in <invoke>", 4),
      (#"<state id="a"><invoke src="w" autoforward="yes"/></state>"#, "autoforward='yes'", 3),
      (#"<state id="a"><invoke type="http://www.w3.org/TR/scxml/"/></state>"#, "nested SCXML sessions", 3),
      (#"<state id="a"><invoke/></state>"#, "needs a src or type", 3),
      (#"<state id="a"><invoke src="unbound"/></state>"#, "invocation 'unbound' is not bound", 3),
      (#"<state id="a"><invoke id="x/y" src="w"/></state>"#, "invoke id", 3),
      ("<state id=\"a\"><invoke id=\"x\" src=\"w\"/></state>\n<state id=\"b\"><invoke id=\"x\" src=\"w\"/></state>", "invoke id 'x' is declared twice", 4),
      (#"<final id="a"><invoke src="w"/></final>"#, "<invoke> is not supported in <final>", 3),
      (
        "<state id=\"a\"><invoke id=\"x\" src=\"w\"/><state id=\"b\">\n<transition event=\"done.invoke.x\" target=\"a\"/></state></state>",
        "must be in the state that invokes 'x', not in an ancestor or descendant", 4
      ),
    ])
  func unsupported(body: String, expected: String, line: Int) {
    let error = SCXMLImportTests.importError(SCXMLImportTests.document(body)) { bind in bind.invocation("w") { _ in } }
    guard case .invalidDocument(let message, let errorLine, let column)? = error else {
      Issue.record("expected invalidDocument for \(body), got \(String(describing: error))")
      return
    }
    #expect(message.contains(expected), "\(message)")
    #expect(errorLine == line)
    #expect(column >= 1)
  }

  @Test("a descriptor that only matches a result event as a prefix does not take it (not supported)")
  func prefixDoesNotMatch() async throws {
    let machine = try Self.machine(
      """
      <state id="s0">
        <invoke id="foo" src="w"/>
        <transition event="done" target="s2"/>
        <transition event="done.invoke.foo" target="s1"/>
      </state>
      <state id="s1"/>
      <state id="s2"/>
      """, bind: { bind in bind.invocation("w") { _ in } })
    try machine.startStateMachine()
    await machine.waitForInvocations()
    // SCXML would take the first transition (`done` matches `done.invoke.foo`); the import
    // declares only the written-out one as the result transition.
    #expect(machine.state == "s1")
    #expect(machine.invocationStatistics.delivered == 1)
  }

  @Test("an imported invoke exports to JSON with its binding's name as src")
  func exportsToJSON() throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(
      scxml: SCXMLImportTests.document(
        """
        <state id="s0"><invoke id="foo" type="w"/><transition event="done.invoke.foo" target="s1"/></state>
        <state id="s1"/>
        """), bind: { bind in bind.invocation("w") { _ in } })
    let json = try definition.jsonDefinition()
    #expect(json.contains(#""id": "foo""#), "\(json)")
    #expect(json.contains(#""src": "w""#), "\(json)")
    #expect(json.contains(#""onDone": {"#), "\(json)")
  }
}
