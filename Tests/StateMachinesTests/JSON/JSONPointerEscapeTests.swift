import Foundation
import StateMachines
import Testing

/// Every pointer in a JSON error escapes `~` and `/` of a key (RFC 6901: `~0`, `~1`).
@Suite("JSON pointers escape keys")
struct JSONPointerEscapeTests {
  static func pointer(of text: String) -> String? {
    do {
      _ = try StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8))
    } catch {
      if case .invalidJSON(_, _, _, let pointer) = error { return pointer }
    }
    return nil
  }

  @Test("an event name with ~ and / is escaped in the pointer of its transition's error")
  func eventKey() {
    #expect(Self.pointer(of: #"{"states": {"a": {"on": {"go~/x": "zz"}}}}"#) == "/states/a/on/go~0~1x")
    #expect(Self.pointer(of: #"{"states": {"a": {"on": {"go~/x": {"target": "a", "guard": 3}}}}}"#) == "/states/a/on/go~0~1x/guard")
  }

  @Test("a state name with ~ is escaped in the pointer of its error")
  func stateKey() {
    // `~` is no character of a state name: the error names the escaped key.
    #expect(Self.pointer(of: #"{"states": {"a~b": {}}}"#) == "/states/a~0b")
    #expect(Self.pointer(of: #"{"states": {"a": {"states": {"x~y": {}}}}}"#) == "/states/a/states/x~0y")
  }
}
