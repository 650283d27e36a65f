// The names harness's JSON part: a tiny document whose states and events are the input's names,
// loaded in three spellings that must load alike.
import Foundation
import StateMachines

enum NameFuzzJSON {
  /// Loads a document with states `n` and `k` and an event `e` from each to the other, in our
  /// format (`{"states": {n: {"on": {e: k}}, …}}`) or TBStateMachine's (`tb`), with the names as
  /// UTF-8, as `\u` escapes, and decomposed: all three load or none; the first two give the same
  /// bytes, the third equal names; and firing `e` by an equal spelling answers as the declared one.
  static func check(state n: String, other k: String, event e: String, tb: Bool, _ setup: FuzzDriver.Setup) {
    func load(_ names: [String], escaped: Bool) -> StateMachineDefinition<DynamicStateMachine>? {
      let q = names.map { quote($0, escaped: escaped) }
      let text =
        tb
        ? "{\"name\": \"m\", \"states\": [{\"name\": \(q[0]), \"type\": \"state\"}, {\"name\": \(q[1]), \"type\": \"state\"}], "
          + "\"transitions\": [{\"type\": \"simple\", \"kind\": \"external\", \"name\": \(q[2]), \"source\": \(q[0]), \"target\": \(q[1])}, "
          + "{\"type\": \"simple\", \"kind\": \"external\", \"name\": \(q[2]), \"source\": \(q[1]), \"target\": \(q[0])}]}"
        : "{\"states\": {\(q[0]): {\"on\": {\(q[2]): \(q[1])}}, \(q[1]): {\"on\": {\(q[2]): \(q[0])}}}}"
      do {
        return try StateMachineDefinition<DynamicStateMachine>(
          json: Data(text.utf8), clock: setup.clock, bind: { _ in }, setup.limit)
      } catch {
        if NameCalls.tracing { print("JSON \(text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()): \(error)") }
        return nil
      }
    }
    let names = [n, k, e]
    let plain = load(names, escaped: false)
    let escaped = load(names, escaped: true)
    // The loaders limit a name's length in UTF-8 bytes (`JSONLimits.maxNameBytes`), a bound on
    // the document, so a decomposed spelling may pass it where the precomposed one did not: such
    // names are not loaded decomposed.
    let decomposedNames = names.map(\.decomposedStringWithCanonicalMapping)
    let withinLimit = (names + decomposedNames).allSatisfy { $0.utf8.count <= JSONLimits().maxNameBytes }
    let decomposed = withinLimit ? load(decomposedNames, escaped: false) : plain
    guard (plain == nil) == (escaped == nil), (plain == nil) == (decomposed == nil) else {
      fatalError("names: JSON loaded \(plain != nil) as UTF-8, \(escaped != nil) escaped, \(decomposed != nil) decomposed")
    }
    guard let plain, let escaped, let decomposed else { return }
    guard plain.states.elementsEqual(escaped.states, by: TwinMachines.sameBytes),
      plain.events.elementsEqual(escaped.events, by: TwinMachines.sameBytes)
    else { fatalError("names: JSON \\u escapes gave other names: \(plain.states) \(escaped.states)") }
    guard plain.states == decomposed.states, plain.events == decomposed.events else {
      fatalError("names: decomposed JSON names are not equal: \(plain.states) \(decomposed.states)")
    }
    let first = DynamicStateMachine(plain)
    let second = DynamicStateMachine(plain)
    let declared = plain.events.first { $0 == e } ?? e
    let spelled = first.fire(e.decomposedStringWithCanonicalMapping)
    guard spelled == second.fire(declared), TwinMachines.sameBytes(first.state, second.state) else {
      fatalError("names: JSON event \(TwinMachines.show(e)) fired \(spelled) decomposed, not as declared")
    }
  }

  /// `name` as a JSON string: `"`, `\` and controls escaped; other scalars as UTF-8, or as
  /// `\uXXXX` (surrogate pairs past the BMP) when `escaped`.
  static func quote(_ name: String, escaped: Bool) -> String {
    var out = "\""
    for scalar in name.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20 || (escaped && scalar.value >= 0x80):
        for unit in String(scalar).utf16 { out += "\\u" + hex4(unit) }
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  static func hex4(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }
}
