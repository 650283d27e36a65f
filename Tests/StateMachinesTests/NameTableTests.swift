import Testing

@testable import StateMachines

// The name lookup of `fire("name")` and `isInState("name")` (issue 7: no general-purpose string
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
}
