import Foundation
import StateMachines
import Testing

/// The format's JSON Schema, `Sources/StateMachines/Schemas/statemachines-1.schema.json`
/// (draft 2020-12): its examples load, and it rejects what the loader rejects.
@Suite("JSON Schema of statemachines/1 (§7)")
struct JSONSchemaTests {
  static let schemaURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/StateMachines/Schemas/statemachines-1.schema.json")

  static func schema() throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as! [String: Any]
  }

  @Test("the schema is draft 2020-12 with additionalProperties false and examples")
  func shape() throws {
    let schema = try Self.schema()
    #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    #expect(schema["additionalProperties"] as? Bool == false)
    #expect((schema["examples"] as? [Any])?.count == 3)
  }

  @Test("every example in the schema loads through the loader and validates against the schema")
  func examplesLoad() throws {
    let validator = try SchemaValidator(Data(contentsOf: Self.schemaURL))
    for (index, example) in (try Self.schema()["examples"] as! [Any]).enumerated() {
      #expect(validator.isValid(example), "example \(index) validates")
      let data = try JSONSerialization.data(withJSONObject: example)
      let definition = try StateMachineDefinition<DynamicStateMachine>(json: data) { bind in
        for name in ["hasTrack", "ready"] { bind.guard(name) { _, _ in true } }
        for name in ["spinUp", "advance", "refund", "retry"] { bind.action(name) { _, _ in } }
      }
      #expect(!definition.states.isEmpty, "example \(index) loads")
    }
  }

  /// Documents both must reject (one per rule a schema can express).
  static let invalidDocuments = [
    #"{"states": {}}"#, #"{"initial": "a"}"#, #"{"format": "xstate", "states": {"a": {}}}"#,
    #"{"states": {"a": {}}, "extra": 1}"#, #"{"states": {"1a": {}}}"#, #"{"states": {"a/b": {}}}"#,
    #"{"states": {"a": []}}"#, #"{"states": {"a": {"type": "choice"}}}"#, #"{"states": {"a": {"type": "final", "on": {}}}}"#,
    #"{"states": {"a": {"type": "parallel"}}}"#, #"{"states": {"a": {"states": {}}}}"#, #"{"states": {"a": {"initial": "b"}}}"#,
    #"{"states": {"a": {"states": {"h": {"type": "history", "history": "medium"}}}}}"#, #"{"states": {"a": {"type": "join"}}}"#,
    #"{"states": {"a": {"type": "junction"}}}"#, #"{"states": {"a": {"type": "junction", "paths": []}}}"#,
    #"{"states": {"a": {"on": {"go": {"target": "a", "kind": "sideways"}}}}}"#, #"{"states": {"a": {"on": {"go": {"to": "a"}}}}}"#,
    #"{"states": {"a": {"on": {"go": 3}}}}"#, #"{"states": {"a": {"after": [{"target": "a"}]}}}"#,
    #"{"states": {"a": {"after": [{"seconds": -1, "target": "a"}]}}}"#, #"{"states": {"a": {"on": {"": "a"}}}}"#,
    #"{"states": {"a": {"on": {"go": "b//c"}}, "b": {}}}"#, #"{"states": {"a": {"type": "history", "on": {}}}}"#,
    #"{"states": {"a": {"entry": [""]}}}"#, #"{"states": {"a": {"on": {"go": {"guard": 1}}}}}"#,
    // Declared actions (Paths): one kind each, an id only with a delay, a positive delay.
    #"{"states": {"a": {"entry": [{"raise": "e", "cancel": "t"}]}}}"#, #"{"states": {"a": {"entry": [{"send": "e", "id": "t"}]}}}"#,
    #"{"states": {"a": {"entry": [{"send": "e", "delay": 0}]}}}"#, #"{"states": {"a": {"exit": [{"raise": "e", "delay": 1}]}}}"#,
    #"{"states": {"a": {"on": {"go": {"target": "a", "actions": [{"emit": "e"}]}}}}}"#, #"{"states": {"a": {"entry": [{"raise": ""}]}}}"#,
  ]

  @Test("the schema and the loader agree on invalid documents", arguments: invalidDocuments)
  func agreeOnInvalid(text: String) throws {
    let validator = try SchemaValidator(Data(contentsOf: Self.schemaURL))
    let instance = try JSONSerialization.jsonObject(with: Data(text.utf8))
    #expect(!validator.isValid(instance), "the schema rejects it")
    #expect(throws: DefinitionError.self, "the loader rejects it") {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    }
  }

  @Test("the schema and the loader agree on valid documents")
  func agreeOnValid() throws {
    let validator = try SchemaValidator(Data(contentsOf: Self.schemaURL))
    for text in [
      #"{"states": {"a": {}}}"#, #"{"states": {"a": {"on": {"go": ["a", {"target": "a", "kind": "local"}]}}}}"#,
      #"{"states": {"a": {"states": {"b": {}, "h": {"type": "history", "target": "b"}}}}}"#,
      #"{"states": {"p": {"type": "parallel", "states": {"x": {}, "y": {}}}}}"#,
      #"{"states": {"a": {"entry": [{"raise": "go"}, {"send": "go", "delay": 2.5, "id": "t"}], "exit": [{"cancel": "t"}, {"send": "go"}], "on": {"go": {"target": "a", "actions": [{"raise": "go"}]}}}}}"#,
    ] {
      #expect(validator.isValid(try JSONSerialization.jsonObject(with: Data(text.utf8))), "\(text)")
      #expect(throws: Never.self) { _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) }
    }
  }
}
