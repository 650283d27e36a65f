import Foundation
import StateMachines
import Testing

/// The JSON reader under the loader (Hierarchy §7): RFC 8259, key order kept, duplicate keys
/// rejected, every error at a line and column with the JSON pointer of the value being read.
@Suite("JSON reader (§7)")
struct JSONReaderTests {
  /// Loads `text` as a definition and returns the error.
  func error(_ text: String, limits: JSONLimits = JSONLimits()) -> DefinitionError? {
    do {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8), limits: limits)
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "syntax errors name their line, column and pointer",
    arguments: [
      ("{\"states\": {\"a\": {},}}", "expected a string key in an object", 1, 21, "/states"),
      ("{\"states\": {\"a\": {}, \"a\": {}}}", "duplicate key 'a' (the first is at 1:18)", 1, 22, "/states/a"),
      ("{\"states\": {\"a\": {\"on\": {\"go\": \"b\\q\"}}}}", "invalid escape '\\q'", 1, 34, "/states/a/on/go"),
      ("{\"states\": {\"a\": {\"on\": {\"go\": \"\\ud800\"}}}}", "unpaired surrogate \\uD800", 1, 33, "/states/a/on/go"),
      ("{\"states\":\n  {\"a\": [01]}}", "invalid number: leading zero", 2, 11, "/states/a/0"),
      ("{\"states\": {\"a\": {}}} x", "unexpected content after the document's value", 1, 23, ""),
      ("{\"states\": {\"a\": {\"description\": \"tab\there\"}}}", "control character U+0009 in a string; escape it", 1, 38, "/states/a/description"),
      ("{\"states\": {\"a\": tru}}", "invalid literal; expected 'true'", 1, 18, "/states/a"),
      ("{\"states\": {\"a\": {\"description\": \"open", "unterminated string", 1, 34, "/states/a/description"),
      ("{\"states\" {}}", "expected ':' after key 'states'", 1, 11, ""),
      ("[1e999]", "number 1e999 is out of range", 1, 2, "/0"),
      ("", "unexpected end of the document; expected a value", 1, 1, ""),
    ])
  func syntaxErrors(text: String, message: String, line: Int, column: Int, pointer: String) {
    #expect(error(text) == .invalidJSON(message, line: line, column: column, pointer: pointer))
  }

  @Test(
    "a duplicate key is found in small and large objects, past nested objects, at its position",
    arguments: [3, 15, 16, 17, 40])
  func duplicateKeys(count: Int) throws {
    // `count` states, each with a nested object; then state `s1` once more.
    let states = (0..<count).map { #""s\#($0)": {"on": {"go": "s0"}}"# }
    let prefix = #"{"states": {"# + states.joined(separator: ", ") + ", "
    // The error names both places: the first `s1`'s value too.
    let firstValue = #"{"states": {"# + states[0] + #", "s1": "#
    #expect(
      error(prefix + #""s1": {}}}"#)
        == .invalidJSON(
          "duplicate key 's1' (the first is at 1:\(firstValue.count + 1))", line: 1, column: prefix.count + 1,
          pointer: "/states/s1"))
    // The same keys without the repetition load, in document order (N2).
    let definition = try StateMachineDefinition<DynamicStateMachine>(
      json: Data((#"{"states": {"# + states.joined(separator: ", ") + "}}").utf8))
    #expect(definition.states == (0..<count).map { "s\($0)" })
    // Keys of different objects never clash.
    let nested = #"{"states": {"a": {"on": {"go": "b"}}, "b": {"on": {"go": "a"}}}}"#
    #expect(error(nested) == nil)
  }

  @Test("invalid UTF-8 is an error at its byte, overlong forms included")
  func invalidUTF8() {
    for bytes: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
      let data = Data("{\"states\": {\"".utf8) + Data(bytes) + Data("\": {}}}".utf8)
      var caught: DefinitionError?
      do { _ = try StateMachineDefinition<DynamicStateMachine>(json: data) } catch { caught = error }
      guard case .invalidJSON(let message, 1, 14, "/states")? = caught else {
        Issue.record("expected invalid UTF-8 at 1:14, got \(String(describing: caught))")
        continue
      }
      #expect(message == "invalid UTF-8")
    }
  }

  @Test("nesting past maxDepth and documents past maxBytes are errors, not crashes")
  func limits() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(error(deep) == .invalidJSON("nesting deeper than the limit of 64", line: 1, column: 65, pointer: "/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"))
    #expect(
      error("{\"states\": {\"a\": {}}}", limits: JSONLimits(maxBytes: 10))
        == .invalidJSON("the document has 21 bytes, more than the limit of 10", line: 1, column: 1, pointer: ""))
  }

  @Test("escapes decode, and keys keep their document order (N2)")
  func decodingAndOrder() throws {
    let text = """
      {"states": {"zeta": {"on": {"go": "\\u0061lpha \\"q\\""}}, "alpha \\"q\\"": {}, "mid\\u00e9": {}, "\\ud83d\\ude00x": {}}}
      """
    var caught: DefinitionError?
    do { _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) } catch { caught = error }
    // The decoded names reach the loader: the quote is not a valid state name character.
    #expect(caught?.description.contains("invalid state name 'alpha \"q\"'") == true)
    let valid = """
      {"states": {"zeta": {"on": {"go": "alpha"}}, "alpha": {}, "mid": {"description": "caf\\u00e9 \\ud83d\\ude00 \\/ \\\\ \\n"}}}
      """
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(valid.utf8))
    #expect(definition.states == ["zeta", "alpha", "mid"])
    #expect(definition.initialState == "zeta")
  }
}
