import Foundation
import Testing

@testable import StateMachines

// The name lookup of `fire("name")` and `isInState("name")` (no general-purpose string
// hashing on the hot path): every name is found at its index, anything else is not.
@Suite("Name table")
struct NameTableTests {
  @Test("finds every name, short, long, non-ASCII, sharing prefixes; rejects others")
  func lookups() {
    let names =
      ["a", "b", "ab", "ba", "suspend", "unsuspend", "pendingActivation", "pendingActivatio",
       "in progress", "état", "日本語の状態", String(repeating: "x", count: 300)]
      + (0..<500).map { "state\($0)" }
    let table = NameTable(names)
    for (index, name) in names.enumerated() {
      #expect(table.index(of: name) == Int32(index))
    }
    for missing in ["", "c", "suspended", "pendingActivationX", "state500", "etat", String(repeating: "x", count: 299)] {
      #expect(table.index(of: missing) == nil)
    }
  }

  @Test("the first of two equal names wins")
  func duplicates() {
    let table = NameTable(["on", "off", "on"])
    #expect(table.index(of: "on") == 0)
    #expect(table.index(of: "off") == 1)
  }

  @Test("a name from a bridged or concatenated string hashes like its literal")
  func sameBytesSameHash() {
    let built = ["sus", "pend"].joined()
    #expect(NameTable.hash(built) == NameTable.hash("suspend"))
    #expect(NameTable(["suspend"]).index(of: built) == 0)
  }

  @Test("a small name is found by its words; the byte lookup agrees on random names of every small length")
  func smallNamesByWords() {
    let table = NameTable(["activate", "suspend", "unsuspend", "pendingActivation", "état", "on", "on"])
    #expect(table.small.index(of: "suspend") == 1)
    #expect(table.small.index(of: "unsuspend") == 2)
    #expect(table.small.index(of: "état") == 4)
    #expect(table.small.index(of: "on") == 5)
    // Not small (16 bytes or more): left to the byte lookup, which finds it.
    #expect(table.small.index(of: "pendingActivation") == nil)
    #expect(table.index(of: "pendingActivation") == 3)
    var generator = SystemRandomNumberGenerator()
    let alphabet: [Character] = ["a", "z", "0", "_", ".", "é", "ß", "日", "\u{0}", "\u{7F}"]
    let names = (0..<300).map { count in
      String((0..<count % 18).map { _ in alphabet.randomElement(using: &generator)! })
    }
    let random = NameTable(names)
    for name in names + names.map({ $0 + "x" }) {
      let declared = names.firstIndex(of: name).map { Int32($0) }
      #expect(random.index(of: name) == declared, "\(name.debugDescription)")
      #expect(random.small.index(of: name) == nil || random.small.index(of: name) == declared)
      #expect(random.byteIndex(of: name) == declared, "\(name.debugDescription)")
    }
  }

  @Test("a short name held in heap storage (not a small string) is found like its literal")
  func shortNameInHeapStorage() {
    // Capacity beyond the 15 bytes of a small string: the bytes live in native storage.
    let heap = String(unsafeUninitializedCapacity: 64) { buffer in
      let bytes = Array("suspend".utf8)
      for (offset, byte) in bytes.enumerated() { buffer[offset] = byte }
      return bytes.count
    }
    let table = NameTable(["activate", "suspend", heap + "ed"])
    #expect(table.index(of: heap) == 1)
    #expect(table.index(of: "suspended") == 2)
    // Declared from heap storage, the name is still entered by its small form.
    #expect(NameTable([heap]).small.index(of: "suspend") == 0)
  }
}

/// Names compare by canonical equivalence (Semantics §Names): the table finds a name in any
/// spelling that `String ==` calls equal, and nothing else.
@Suite("Name table: canonical equivalence")
struct NameTableCanonicalTests {
  @Test("a precomposed, decomposed or reordered spelling finds the declared name")
  func otherSpellings() {
    let declared = ["état", "\u{D55C}", "\u{00C5}", "q\u{0323}\u{0307}", "K", ";", "plain"]
    let other = ["e\u{301}tat", "\u{1112}\u{1161}\u{11AB}", "\u{212B}", "q\u{0307}\u{0323}", "\u{212A}", "\u{037E}"]
    let table = NameTable(declared)
    for (index, spelling) in other.enumerated() {
      #expect(spelling.utf8.elementsEqual(declared[index].utf8) == false)
      #expect(table.index(of: spelling) == Int32(index), "\(spelling.unicodeScalars.map { $0.value })")
    }
    for lookalike in ["etat", "e", "\u{0430}", "k", "plain\u{301}", "K\u{301}"] {
      #expect(table.index(of: lookalike) == nil)
    }
  }

  @Test("an all-ASCII table finds an ASCII name spelled with a singleton decomposition")
  func asciiTable() {
    let table = NameTable(["K", "a;b", "x`"])
    #expect(table.index(of: "\u{212A}") == 0)
    #expect(table.index(of: "a\u{037E}b") == 1)
    #expect(table.index(of: "x\u{1FEF}") == 2)
    #expect(table.index(of: "\u{212A}\u{301}") == nil)
    #expect(table.index(of: "é") == nil)
  }

  @Test("the singletons are exactly the scalars that String == calls equal to an ASCII character")
  func singletonsAreComplete() {
    var ascii: [String: Unicode.Scalar] = [:]
    for value in 0..<0x80 { ascii[String(Unicode.Scalar(UInt8(value)))] = Unicode.Scalar(UInt8(value)) }
    var found: [Unicode.Scalar: Unicode.Scalar] = [:]
    for value in UInt32(0x80)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), let equal = ascii[String(scalar)] else { continue }
      found[scalar] = equal
    }
    #expect(found == NameTable.asciiSingletons)
  }
}

/// Findings of the `names` fuzz harness (Tools/Fuzz/RUNS.md), as regression tests.
@Suite("Name findings of the fuzzer")
struct NameFuzzFindingTests {
  @Test("two spellings of one name in a table (an invalid chart's fallback) find the first")
  func equalSpellingsFindTheFirst() {
    let table = NameTable(["\u{E9}tat", "b", "e\u{301}tat"])
    #expect(table.index(of: "\u{E9}tat") == 0)
    #expect(table.index(of: "e\u{301}tat") == 0)
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("\u{E9}tat")
      sm.addState("b") { $0.addState("e\u{301}tat") }
      sm.when("go", transitionFrom: "b", to: "nowhere")
    }
    #expect(definition.definitionError != nil)
    let machine = DynamicStateMachine(definition)
    #expect(machine.isInState("\u{E9}tat") == machine.isInState("e\u{301}tat"))
  }

  @Test("a JSON state named U+212A KELVIN SIGN is the state K")
  func kelvinSignStateNameIsK() throws {
    for key in ["\u{212A}", #"\u212a"#] {
      let definition = try StateMachineDefinition<DynamicStateMachine>(
        json: Data(#"{"states": {"\#(key)": {"on": {"go": "b"}}, "b": {}}}"#.utf8))
      let machine = DynamicStateMachine(definition)
      #expect(machine.isInState("K"))
      #expect(machine.fire("go"))
      #expect(machine.state == "b")
    }
  }

  @Test("a configuration whose names start with a combining mark reads back")
  func leadingCombiningMark() throws {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addParallelState("\u{301}p", regions: [["x"], ["y"]])
      sm.addState("q") { $0.addState("\u{301}r") }
    }
    try #require(definition.definitionError == nil)
    let state = DynamicStateMachine(definition).state
    #expect(state == "\u{301}p@0/x,\u{301}p@1/y")
    let restored = DynamicStateMachine(definition)
    try restored.restoreState(state)
    #expect(restored.state.utf8.elementsEqual(state.utf8))
    try restored.restoreState("q/\u{301}r")
    #expect(restored.isInState("q/\u{301}r"))
  }
}

/// The fourth finding of the names fuzz harness: a compound state redeclared final.
@Suite("A final state with children")
struct FinalStateWithChildrenTests {
  @Test("a compound state redeclared final is a definition error naming it, not an empty state")
  func compoundRedeclaredFinal() {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("s") { $0.addState("a"); $0.addState("b") }
      sm.addState("t")
      sm.addFinalState("s")
    }
    #expect(definition.definitionError == .invalidStructure("final state 's' has children; a final state is atomic"))
    let machine = DynamicStateMachine(definition)
    #expect(!machine.fire("go"))
    #expect(!machine.state.isEmpty || definition.states.isEmpty)
  }
}
