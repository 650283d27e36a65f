import StateMachines
import Testing

// Wide definitions: building a definition was cubic (a 1000 × 1000 definition took 327 s). The
// build is now linear in the table plus the transitions; its speed is a benchmark row. These tests
// check that wide definitions built the new way behave: a chain, wildcards mixed with specific
// transitions, guards in declaration order.

/// A chain `s0 -e0-> s1 -e1-> … s(n-1)`, plus a wildcard `reset` to `s0` and a guarded `skip`
/// from every state that the wildcard `skip` backs up.
private func chain(_ count: Int) throws -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for index in 0..<count { sm.addState("s\(index)") }
    for index in 0..<(count - 1) { sm.when("e\(index)", transitionFrom: "s\(index)", to: "s\(index + 1)") }
    sm.when("reset", transitionFromAnyStateTo: "s0")
    sm.when("skip", transitionFromAnyStateTo: "s1")
    sm.when("skip", transitionFrom: "s0", to: "s2").guarded { _ in false }
    sm.when("skip", transitionFrom: "s0", to: "s3")
  })
}

@Suite("Wide definitions")
struct WideDefinitionTests {
  @Test("a 2,000-state chain: every event leads one step, others are rejected")
  func longChain() throws {
    let machine = try chain(2_000)
    for index in 0..<1_999 {
      if index < 1_998 { #expect(!machine.fire("e\(index + 1)")) }
      guard machine.fire("e\(index)") else {
        Issue.record("e\(index) rejected in \(machine.state)")
        return
      }
    }
    #expect(machine.state == "s1999")
    #expect(machine.availableEvents == ["reset", "skip"])
    #expect(machine.fire("reset"))
    #expect(machine.state == "s0")
  }

  @Test("specific transitions before wildcards, guards in declaration order")
  func candidateOrder() throws {
    let machine = try chain(10)
    // From s0 the guarded specific `skip` fails, the next specific one wins over the wildcard.
    #expect(machine.fire("skip"))
    #expect(machine.state == "s3")
    // From s3 only the wildcard applies.
    #expect(machine.fire("skip"))
    #expect(machine.state == "s1")
    #expect(machine.can("e1"))
    #expect(!machine.can("e5"))
  }
}
