import StateMachinesNames
import Testing

/// The names model on its own: canonical equivalence in lookups and paths (Semantics §Names), and
/// the placement of declarations (N4–N6). The names table (`NameModelTableTests`) runs the same
/// model through the macro and the runtime.
@Suite struct NameTreeTests {
  /// `café` {`crème`}, `Å` (U+00C5), `한` (U+D55C), `c` ∥ [@0 `é`].
  private let tree = NameTree([
    DeclaredName(name: "caf\u{E9}", scope: -1, kind: .state),
    DeclaredName(name: "cr\u{E8}me", scope: 0, kind: .state),
    DeclaredName(name: "\u{C5}", scope: -1, kind: .state),
    DeclaredName(name: "\u{D55C}", scope: -1, kind: .state),
    DeclaredName(name: "c", scope: -1, kind: .parallel),
    DeclaredName(name: "", scope: 4, kind: .state),
    DeclaredName(name: "\u{E9}", scope: 5, kind: .state),
  ])

  @Test(arguments: [
    ("cafe\u{301}", "caf\u{E9}"), ("caf\u{E9}/cre\u{300}me", "caf\u{E9}/cr\u{E8}me"), ("cre\u{300}me", "caf\u{E9}/cr\u{E8}me"),
    ("\u{212B}", "\u{C5}"), ("A\u{30A}", "\u{C5}"), ("\u{1112}\u{1161}\u{11AB}", "\u{D55C}"), ("c@0/e\u{301}", "c@0/\u{E9}"),
  ])
  func anySpellingFindsTheNode(written: String, path: String) throws {
    #expect(try tree.path(of: tree.resolve(written, from: -1)) == path)
  }

  @Test(arguments: ["e", "\u{430}fe", "cafe", "A", "\u{1112}"])
  func lookAlikesAreOtherNames(written: String) {
    #expect(throws: NameError.undeclared(written)) { try tree.resolve(written, from: -1) }
  }

  @Test func canonicallyEqualDeclarationsMerge() {
    let merged = NameTree([
      DeclaredName(name: "\u{E9}tat", scope: -1, kind: .state),
      DeclaredName(name: "e\u{301}tat", scope: -1, kind: .state),
      DeclaredName(name: "x", scope: 1, kind: .state),
    ])
    #expect(merged.count == 2)
    #expect(merged.aliasOf == [0, 0, 2])
    #expect(merged.paths == ["\u{E9}tat", "\u{E9}tat/x"])
  }

  @Test func aPathMayNameAStateDeclaredAfterIt() {
    let placed = NameTree([
      DeclaredName(name: "c", scope: -1, parentPath: "a/b", kind: .state),
      DeclaredName(name: "b", scope: -1, parentPath: "a", kind: .state),
      DeclaredName(name: "a", scope: -1, kind: .state),
    ])
    #expect(placed.errors.isEmpty)
    #expect(placed.paths == ["a", "a/b", "a/b/c"])
  }

  @Test func aParentThatNeverResolvesIsAnError() {
    let placed = NameTree([DeclaredName(name: "paused", scope: -1, parentPath: "nope", kind: .state)])
    #expect(placed.errors.map(\.message) == ["addState('nope/paused') names undeclared state 'nope'"])
  }

  @Test func grammar() {
    #expect(throws: NameError.empty) { try NameGrammar.checkStateName("") }
    #expect(throws: NameError.reservedCharacter("a@b")) { try NameGrammar.checkStateName("a@b") }
    #expect(throws: Never.self) { try NameGrammar.checkStateName("\u{E9}t\u{E9}") }
    #expect(NameGrammar.isPortable("in progress-2"))
    #expect(!NameGrammar.isPortable("\u{E9}t\u{E9}"))
    #expect(!NameGrammar.isPortable("1a"))
  }

  @Test func paths() throws {
    #expect(StatePath.splitDeclaration("a/b/c") == ("a/b", "c"))
    #expect(StatePath.splitDeclaration("c") == (nil, "c"))
    #expect(try StatePath.components("c/c2@1/c223").map(\.region) == [nil, 1, nil])
    #expect(throws: NameError.invalidPath("a//b", reason: "empty component")) { try StatePath.components("a//b") }
  }
}
