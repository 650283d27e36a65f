import Foundation
import Testing

@testable import StateMachines

/// A state's `invoke` in `statemachines/1` (Invoke A.5): work bound by name, result
/// transitions as `onDone`/`onError`, errors located, and the export's round trip.
@Suite(.timeLimit(.minutes(1)))
struct JSONInvokeTests {
  static let profile = #"""
    {
      "format": "statemachines/1",
      "states": {
        "idle": { "on": { "load": "loading" } },
        "loading": {
          "on": { "cancel": "idle" },
          "invoke": [
            {
              "src": "fetchUser",
              "onDone": { "target": "ready", "actions": ["store"] },
              "onError": "failed"
            }
          ]
        },
        "ready": {},
        "failed": { "invoke": [{ "id": "report", "src": "fetchUser", "onRestore": "fail", "autoforward": true }] }
      }
    }
    """#

  /// Binds `fetchUser` (upper-cases its input; "bad" throws) and `store` (records the payload).
  final class Received: @unchecked Sendable {
    let lock = NSLock()
    private var values: [String?] = []
    func append(_ value: String?) { lock.withLock { values.append(value) } }
    var all: [String?] { lock.withLock { values } }
  }

  struct Bad: Error {}

  static func bind(_ received: Received) -> (inout Bindings<DynamicStateMachine>) -> Void {
    { bind in
      bind.invocation("fetchUser") { context in
        let name = context.input as? String
        if name == "bad" { throw Bad() }
        return name?.uppercased()
      }
      bind.action("store") { _, transition in received.append(transition.payload as? String) }
    }
  }

  @Test("I2, I6: a loaded invoke runs its bound work with the entering payload; its result takes onDone")
  func loadsAndRuns() async throws {
    let received = Received()
    let machine = try DynamicStateMachine(json: Data(Self.profile.utf8), bind: Self.bind(received))
    #expect(machine.fire("load", payload: "ada"))
    #expect(machine.activeInvocations.map(\.id) == ["fetchUser"])
    await machine.waitForInvocations()
    #expect(machine.state == "ready")
    #expect(received.all == ["ADA"])
  }

  @Test("I6: a throwing bound work takes onError; a nil result is no payload")
  func errorAndNil() async throws {
    let received = Received()
    let machine = try DynamicStateMachine(json: Data(Self.profile.utf8), bind: Self.bind(received))
    #expect(machine.fire("load", payload: "bad"))
    await machine.waitForInvocations()
    #expect(machine.state == "failed")
    // `failed` invokes `report` with no payload (the error is not a String): its nil output.
    let other = try DynamicStateMachine(json: Data(Self.profile.utf8), bind: Self.bind(received))
    #expect(other.fire("load"))
    await other.waitForInvocations()
    #expect(other.state == "ready")
    #expect(received.all == [nil])
  }

  @Test("an unbound source is unboundName at its pointer, line and column")
  func unboundSource() {
    let text = #"{"states": {"idle": {"on": {"load": "loading"}}, "loading": {"invoke": [{"src": "fetchUser"}]}}}"#
    #expect(throws: DefinitionError.unboundName("invocation 'fetchUser'", at: "/states/loading/invoke/0/src", line: 1, column: 81)) {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    }
  }

  @Test(
    "malformed invokes are errors at their pointer",
    arguments: [
      (#"{"states": {"a": {"invoke": [{"id": "x"}]}}}"#, "an invoke needs 'src'", "/states/a/invoke/0"),
      (#"{"states": {"a": {"invoke": [{"src": "w", "autoforward": "yes"}]}}}"#, "expected a boolean", "/states/a/invoke/0/autoforward"),
      (#"{"states": {"a": {"invoke": [{"src": "w", "onRestore": "later"}]}}}"#, "unknown onRestore 'later'", "/states/a/invoke/0/onRestore"),
      (#"{"states": {"a": {"invoke": [{"src": "w", "extra": 1}]}}}"#, "unknown key 'extra'", "/states/a/invoke/0/extra"),
      (#"{"states": {"a": {"invoke": [{"src": "w", "id": "a/b"}]}}}"#, "invoke id", "/states/a/invoke/0"),
      (#"{"states": {"a": {"type": "final", "invoke": []}}}"#, "key 'invoke' is not allowed", "/states/a/invoke"),
    ])
  func malformed(text: String, message: String, pointer: String) {
    do {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) { bind in
        bind.invocation("w") { _ in }
      }
      Issue.record("expected an error for \(text)")
    } catch {
      guard case .invalidJSON(let text, _, _, let at) = error else {
        Issue.record("expected invalidJSON, got \(error)")
        return
      }
      #expect(text.contains(message), "\(text)")
      #expect(at == pointer)
    }
  }

  @Test("I1: an invoke's id is unique in the machine (it defaults to its src)")
  func duplicateID() {
    let text = #"{"states": {"a": {"invoke": [{"src": "w"}]}, "b": {"invoke": [{"src": "w"}]}}}"#
    do {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) { bind in bind.invocation("w") { _ in } }
      Issue.record("expected an error")
    } catch {
      #expect("\(error)".contains("invoke('w') is declared twice"), "\(error)")
    }
  }

  @Test("I2, I8: an invoke in a nested state of a statechart runs, and leaving its parent cancels it")
  func nestedStatechart() async throws {
    let text = #"""
      {"states": {
        "idle": {"on": {"go": "busy"}},
        "busy": {"initial": "fetching", "on": {"stop": "idle"}, "states": {
          "fetching": {"invoke": [{"src": "slow", "onDone": "shown"}]},
          "shown": {}
        }}
      }}
      """#
    let machine = try DynamicStateMachine(json: Data(text.utf8)) { bind in
      bind.invocation("slow") { _ in try await Task.sleep(for: .seconds(3600)) }
    }
    #expect(machine.fire("go"))
    #expect(machine.activeInvocations.map(\.state) == ["busy/fetching"])
    #expect(machine.fire("stop"))
    await machine.waitForInvocations()
    #expect(machine.state == "idle")
    #expect(machine.invocationStatistics.delivered == 0)
    #expect(machine.invocationStatistics.started == 1)
  }

  @Test("the schema accepts an invoke (autoforward true or false) and refuses a non-boolean autoforward, an unknown onRestore and a missing src")
  func schema() throws {
    let validator = try SchemaValidator(Data(contentsOf: JSONSchemaTests.schemaURL))
    func valid(_ text: String) throws -> Bool { validator.isValid(try JSONSerialization.jsonObject(with: Data(text.utf8))) }
    #expect(try valid(Self.profile))
    #expect(try valid(#"{"states": {"a": {"invoke": [{"src": "w", "autoforward": true}]}}}"#))
    #expect(try !valid(#"{"states": {"a": {"invoke": [{"src": "w", "autoforward": "yes"}]}}}"#))
    #expect(try !valid(#"{"states": {"a": {"invoke": [{"src": "w", "onRestore": "later"}]}}}"#))
    #expect(try !valid(#"{"states": {"a": {"invoke": [{"id": "w"}]}}}"#))
    #expect(try !valid(#"{"states": {"a": {"type": "final", "invoke": []}}}"#))
  }

  @Test("a bound invocation the document does not use is a warning")
  func unusedBinding() throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(#"{"states": {"a": {}}}"#.utf8)) { bind in
      bind.invocation("spare") { _ in }
    }
    #expect(definition.definitionWarnings == ["invocation 'spare' is bound but the document does not use it"])
  }

  @Test("the export writes invokes back: id when it differs from src, onDone, onError, onRestore; a second load exports the same")
  func roundTrip() throws {
    let received = Received()
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(Self.profile.utf8), bind: Self.bind(received))
    let exported = try definition.jsonDefinition()
    let reloaded = try StateMachineDefinition<DynamicStateMachine>(json: Data(exported.utf8), bind: Self.bind(received))
    #expect(try reloaded.jsonDefinition() == exported)
    let object = try JSONSerialization.jsonObject(with: Data(exported.utf8)) as! [String: Any]
    let states = object["states"] as! [String: Any]
    let loading = (states["loading"] as! [String: Any])["invoke"] as! [[String: Any]]
    #expect(loading.count == 1)
    #expect(loading[0]["id"] == nil)
    #expect(loading[0]["src"] as? String == "fetchUser")
    #expect((loading[0]["onDone"] as? [String: Any])?["target"] as? String == "ready")
    #expect((loading[0]["onDone"] as? [String: Any])?["actions"] as? [String] == ["store"])
    #expect((loading[0]["onError"] as? [String: Any])?["target"] as? String == "failed")
    // The result transitions are the invoke's, not events of the state.
    #expect(((states["loading"] as! [String: Any])["on"] as? [String: Any])?.keys.sorted() == ["cancel"])
    let failed = (states["failed"] as! [String: Any])["invoke"] as! [[String: Any]]
    #expect(failed[0]["id"] as? String == "report")
    #expect(failed[0]["autoforward"] as? Bool == true)
    #expect(loading[0]["autoforward"] == nil)
    #expect(failed[0]["onRestore"] as? String == "fail")
  }

  @Test("work written in code cannot be exported")
  func codeWorkIsNotExported() {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("a")
      sm.invoke("w", in: "a") { _ in }
    }
    #expect(throws: DefinitionError.self) { _ = try definition.jsonDefinition() }
  }
}
