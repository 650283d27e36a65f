import Testing

@testable import StateMachinesSCXML

/// The `cond` subset the import evaluates itself (Hierarchy §8): each case below parses to a
/// tree that only the right reading of `!`, `&&`, `||`, their precedence and parentheses gives.
@Suite("SCXML conditions")
struct SCXMLConditionTests {
  @Test("the atoms: true, false and In with either quote")
  func atoms() {
    #expect(SCXMLCondition.parse("true") == .constant(true))
    #expect(SCXMLCondition.parse(" false ") == .constant(false))
    #expect(SCXMLCondition.parse("In('a')") == .inState("a"))
    #expect(SCXMLCondition.parse("In( \"b.c\" )") == .inState("b.c"))
  }

  @Test("&& and || build their own node, left-associative")
  func andOr() {
    #expect(SCXMLCondition.parse("In('a') && In('b')") == .and(.inState("a"), .inState("b")))
    #expect(SCXMLCondition.parse("In('a') || In('b')") == .or(.inState("a"), .inState("b")))
    #expect(SCXMLCondition.parse("In('a') && In('b') && In('c')") == .and(.and(.inState("a"), .inState("b")), .inState("c")))
    #expect(SCXMLCondition.parse("In('a') || In('b') || In('c')") == .or(.or(.inState("a"), .inState("b")), .inState("c")))
  }

  @Test("! binds tighter than && and ||, and applies again when doubled")
  func not() {
    #expect(SCXMLCondition.parse("!In('a')") == .not(.inState("a")))
    #expect(SCXMLCondition.parse("!!true") == .not(.not(.constant(true))))
    #expect(SCXMLCondition.parse("!In('a') && In('b')") == .and(.not(.inState("a")), .inState("b")))
    #expect(SCXMLCondition.parse("In('a') || !In('b')") == .or(.inState("a"), .not(.inState("b"))))
  }

  @Test("&& binds tighter than ||, on either side")
  func precedence() {
    #expect(SCXMLCondition.parse("In('a') || In('b') && In('c')") == .or(.inState("a"), .and(.inState("b"), .inState("c"))))
    #expect(SCXMLCondition.parse("In('a') && In('b') || In('c')") == .or(.and(.inState("a"), .inState("b")), .inState("c")))
  }

  @Test("parentheses override precedence and scope !")
  func parentheses() {
    #expect(SCXMLCondition.parse("(In('a') || In('b')) && In('c')") == .and(.or(.inState("a"), .inState("b")), .inState("c")))
    #expect(SCXMLCondition.parse("In('a') && (In('b') || In('c'))") == .and(.inState("a"), .or(.inState("b"), .inState("c"))))
    #expect(SCXMLCondition.parse("!(In('a') && In('b'))") == .not(.and(.inState("a"), .inState("b"))))
    #expect(SCXMLCondition.parse("((true))") == .constant(true))
  }

  @Test("evaluation follows the tree: precedence and parentheses give different answers")
  func evaluation() throws {
    // a active, b and c not.
    let isActive: (String) -> Bool = { $0 == "a" }
    let cases: [(String, Bool)] = [
      ("In('a') || In('b') && In('c')", true),  // a || (b && c)
      ("(In('a') || In('b')) && In('c')", false),
      ("!In('a') || In('a')", true),  // (!a) || a
      ("!(In('a') || In('a'))", false),
      ("!In('b') && In('a')", true),
      ("!(In('b') && In('a'))", true),
      ("!(In('a') && !In('b'))", false),
      ("false || false || In('a')", true),
      ("true && true && In('b')", false),
    ]
    for (text, expected) in cases {
      let condition = try #require(SCXMLCondition.parse(text), "\(text) did not parse")
      #expect(condition.evaluate(isActive) == expected, "\(text)")
    }
  }

  @Test("the ids a condition tests, in order")
  func stateIDs() {
    #expect(SCXMLCondition.parse("In('a') && !(In('b') || In('c'))")?.stateIDs == ["a", "b", "c"])
    #expect(SCXMLCondition.parse("true || false")?.stateIDs == [])
  }

  @Test(
    "anything outside the subset is not parsed",
    arguments: [
      "", "In('a') &&", "|| In('a')", "(In('a')", "In('a'))", "In(a)", "In('a'", "In('a)", "!",
      "In('a') & In('b')", "In('a') | In('b')", "truex", "x > 1", "In('a') In('b')", "()",
    ])
  func rejected(_ text: String) {
    #expect(SCXMLCondition.parse(text) == nil)
  }
}
