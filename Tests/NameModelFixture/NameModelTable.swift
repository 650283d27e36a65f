/// One table of state names and paths, run through the macro (`StateMachinesMacrosTests`) and
/// through the runtime (`StateMachinesTests`): for every row both must accept, or both reject
/// with the row's message (Hierarchy N4–N6, Semantics §Names).
///
/// A row is a few builder calls added to ``NameModelTable/chart``; the macro harness writes them as
/// Swift source (``NameModelTable/source(_:)``), the runtime harness makes the calls.
public enum NameStep: Sendable {
  /// `sm.addState(name)`.
  case add(String)
  /// `sm.addState(scope) { s in s.addState(name) }`: declared inside `scope`'s closure.
  case addIn(String, in: String)
  /// `sm.addState(scope) { s in s.addHistory(name) }`.
  case historyIn(String, in: String)
  /// `sm.addState(scope) { s in s.addParallelState(name, regions: regions) }`.
  case regionsIn(String, regions: [[String]], in: String)
  /// `sm.addParallelState(name) { s in s.addState(region) … }`: named regions.
  case parallel(String, regions: [String])
  /// `sm.when("go", transitionFrom: "home", to: name)`.
  case target(String)
  /// `sm.when("go", transitionFrom: name, to: "home")`.
  case source(String)
  /// `sm.addState(scope) { s in s.when("go", transitionFrom: name, to: name) }`: a reference
  /// resolved in `scope` (N5).
  case targetIn(String, in: String)
}

/// A row: the calls added to the chart, and the message of the definition error they cause
/// (`nil`: the definition is valid).
public struct NameRow: Sendable {
  public let steps: [NameStep]
  public let expected: String?

  public init(_ steps: [NameStep], _ expected: String?) {
    self.steps = steps
    self.expected = expected
  }
}

public enum NameModelTable {
  /// The chart every row extends: `home`; `player` {idle, paused, history hist}; `recorder`
  /// {idle, taping}; `c` {c1, c2 ∥ [@0 c211, c212, c213 | @1 c221, c222, c223]} (TB's chart);
  /// `deck` ∥ {left {spin}, right} with named regions.
  public static let chart: [NameStep] = [
    .add("home"),
    .addIn("idle", in: "player"), .addIn("paused", in: "player"), .historyIn("hist", in: "player"),
    .addIn("idle", in: "recorder"), .addIn("taping", in: "recorder"),
    .addIn("c1", in: "c"),
    .regionsIn("c2", regions: [["c211", "c212", "c213"], ["c221", "c222", "c223"]], in: "c"),
    .parallel("deck", regions: ["left", "right"]),
    .add("deck/left/spin"),
  ]

  /// The statements of `steps` as Swift source, on builder `sm`.
  public static func source(_ steps: [NameStep]) -> String {
    steps.map { step in
      switch step {
      case .add(let name): return "sm.addState(\(literal(name)))"
      case .addIn(let name, let scope): return "sm.addState(\(literal(scope))) { s in s.addState(\(literal(name))) }"
      case .historyIn(let name, let scope): return "sm.addState(\(literal(scope))) { s in s.addHistory(\(literal(name))) }"
      case .regionsIn(let name, let regions, let scope):
        let list = "[" + regions.map { "[" + $0.map(literal).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
        return "sm.addState(\(literal(scope))) { s in s.addParallelState(\(literal(name)), regions: \(list)) }"
      case .parallel(let name, let regions):
        return "sm.addParallelState(\(literal(name))) { s in " + regions.map { "s.addState(\(literal($0)))" }.joined(separator: "; ") + " }"
      case .target(let name): return "sm.when(\"go\", transitionFrom: \"home\", to: \(literal(name)))"
      case .source(let name): return "sm.when(\"go\", transitionFrom: \(literal(name)), to: \"home\")"
      case .targetIn(let name, let scope):
        return "sm.addState(\(literal(scope))) { s in s.when(\"go\", transitionFrom: \(literal(name)), to: \(literal(name))) }"
      }
    }.joined(separator: "\n")
  }

  /// A Swift string literal of `text`, every scalar kept as written (a decomposed accent stays
  /// decomposed).
  static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case " "..."~": result.unicodeScalars.append(scalar)
      default: result += "\\u{\(String(scalar.value, radix: 16))}"
      }
    }
    return result + "\""
  }

  /// The rows: names and paths valid and not, empty, `a/` and `/a`, unknown parents, ambiguous
  /// bare names, region indexes in and out of range, paths into regions, and names outside ASCII
  /// in canonically equal spellings (one name) and look-alikes (two names).
  public static let rows: [NameRow] = [
    NameRow([.target("home")], nil),
    NameRow([.target("player")], nil),
    NameRow([.target("paused")], nil),
    NameRow([.target("hist")], nil),
    NameRow([.target("recorder")], nil),
    NameRow([.target("taping")], nil),
    NameRow([.target("c")], nil),
    NameRow([.target("c1")], nil),
    NameRow([.target("c2")], nil),
    NameRow([.target("c211")], nil),
    NameRow([.target("c212")], nil),
    NameRow([.target("c213")], nil),
    NameRow([.target("c221")], nil),
    NameRow([.target("c222")], nil),
    NameRow([.target("c223")], nil),
    NameRow([.target("deck")], nil),
    NameRow([.target("left")], nil),
    NameRow([.target("right")], nil),
    NameRow([.target("spin")], nil),
    NameRow([.target("home")], nil),
    NameRow([.target("player")], nil),
    NameRow([.target("player/idle")], nil),
    NameRow([.target("player/paused")], nil),
    NameRow([.target("player/hist")], nil),
    NameRow([.target("recorder")], nil),
    NameRow([.target("recorder/idle")], nil),
    NameRow([.target("recorder/taping")], nil),
    NameRow([.target("c")], nil),
    NameRow([.target("c/c1")], nil),
    NameRow([.target("c/c2")], nil),
    NameRow([.target("c/c2@0/c211")], nil),
    NameRow([.target("c/c2@0/c212")], nil),
    NameRow([.target("c/c2@0/c213")], nil),
    NameRow([.target("c/c2@1/c221")], nil),
    NameRow([.target("c/c2@1/c222")], nil),
    NameRow([.target("c/c2@1/c223")], nil),
    NameRow([.target("deck")], nil),
    NameRow([.target("deck/left")], nil),
    NameRow([.target("deck/left/spin")], nil),
    NameRow([.target("deck/right")], nil),
    NameRow([.target("deck@0")], nil),
    NameRow([.target("deck@1")], nil),
    NameRow([.target("deck@0/spin")], nil),
    NameRow([.source("home")], nil),
    NameRow([.source("paused")], nil),
    NameRow([.source("taping")], nil),
    NameRow([.source("c1")], nil),
    NameRow([.source("c213")], nil),
    NameRow([.source("c223")], nil),
    NameRow([.source("spin")], nil),
    NameRow([.source("right")], nil),
    NameRow([.source("player/idle")], nil),
    NameRow([.source("recorder/idle")], nil),
    NameRow([.source("c/c2@0/c213")], nil),
    NameRow([.source("c/c2@1/c223")], nil),
    NameRow([.source("deck@0/spin")], nil),
    NameRow([.source("deck@1")], nil),
    NameRow([.target("idle")], "transition 'go' names ambiguous state 'idle': 'player/idle' or 'recorder/idle'"),
    NameRow([.source("idle")], "transition 'go' names ambiguous state 'idle': 'player/idle' or 'recorder/idle'"),
    NameRow([.target("nope")], "transition 'go' names undeclared state 'nope'"),
    NameRow([.target("Home")], "transition 'go' names undeclared state 'Home'"),
    NameRow([.target("HOME")], "transition 'go' names undeclared state 'HOME'"),
    NameRow([.target("home ")], "transition 'go' names undeclared state 'home '"),
    NameRow([.target("  home")], "transition 'go' names undeclared state '  home'"),
    NameRow([.target("hom")], "transition 'go' names undeclared state 'hom'"),
    NameRow([.target("idle2")], "transition 'go' names undeclared state 'idle2'"),
    NameRow([.target("c3")], "transition 'go' names undeclared state 'c3'"),
    NameRow([.target("c214")], "transition 'go' names undeclared state 'c214'"),
    NameRow([.target("c2 ")], "transition 'go' names undeclared state 'c2 '"),
    NameRow([.target("spinning")], "transition 'go' names undeclared state 'spinning'"),
    NameRow([.target("\u{E9}")], "transition 'go' names undeclared state '\u{E9}'"),
    NameRow([.target("\u{E9}tat")], "transition 'go' names undeclared state '\u{E9}tat'"),
    NameRow([.target("\u{3A9}")], "transition 'go' names undeclared state '\u{3A9}'"),
    NameRow([.target("")], "empty name in transition 'go'"),
    NameRow([.source("")], "empty name in transition 'go'"),
    NameRow([.target("a,b")], "transition 'go': state name 'a,b' contains '/', '@' or ',', which separate path components"),
    NameRow([.target("home,c")], "transition 'go': state name 'home,c' contains '/', '@' or ',', which separate path components"),
    NameRow([.target("c1,c211")], "transition 'go': state name 'c1,c211' contains '/', '@' or ',', which separate path components"),
    NameRow([.target(",")], "transition 'go': state name ',' contains '/', '@' or ',', which separate path components"),
    NameRow([.target(",")], "transition 'go': state name ',' contains '/', '@' or ',', which separate path components"),
    NameRow([.target("c/c2@2/c213")], "transition 'go' names invalid path 'c/c2@2/c213': 'c/c2' has 2 regions, no region 2"),
    NameRow([.target("c/c2@9")], "transition 'go' names invalid path 'c/c2@9': 'c/c2' has 2 regions, no region 9"),
    NameRow([.target("deck@2")], "transition 'go' names invalid path 'deck@2': 'deck' has 2 regions, no region 2"),
    NameRow([.target("deck@3/spin")], "transition 'go' names invalid path 'deck@3/spin': 'deck' has 2 regions, no region 3"),
    NameRow([.target("c/c2@0/c223")], "transition 'go' names invalid path 'c/c2@0/c223': 'c/c2@0' has no child 'c223'"),
    NameRow([.target("c/c2@1/c213")], "transition 'go' names invalid path 'c/c2@1/c213': 'c/c2@1' has no child 'c213'"),
    NameRow([.target("c/c2/c213")], "transition 'go' names invalid path 'c/c2/c213': 'c/c2' has no child 'c213'"),
    NameRow([.target("c/c213")], "transition 'go' names invalid path 'c/c213': 'c' has no child 'c213'"),
    NameRow([.target("c2@0/c213")], "transition 'go' names invalid path 'c2@0/c213': 'the root' has no child 'c2'"),
    NameRow([.target("nope/paused")], "transition 'go' names invalid path 'nope/paused': 'the root' has no child 'nope'"),
    NameRow([.target("player/nope")], "transition 'go' names invalid path 'player/nope': 'player' has no child 'nope'"),
    NameRow([.target("player/taping")], "transition 'go' names invalid path 'player/taping': 'player' has no child 'taping'"),
    NameRow([.target("idle/player")], "transition 'go' names invalid path 'idle/player': 'the root' has no child 'idle'"),
    NameRow([.target("deck/spin")], "transition 'go' names invalid path 'deck/spin': 'deck' has no child 'spin'"),
    NameRow([.target("deck@1/spin")], "transition 'go' names invalid path 'deck@1/spin': 'deck/right' has no child 'spin'"),
    NameRow([.target("player@0")], "transition 'go' names invalid path 'player@0': 'player' is not a parallel state"),
    NameRow([.target("c@0/c1")], "transition 'go' names invalid path 'c@0/c1': 'c' is not a parallel state"),
    NameRow([.target("home@0")], "transition 'go' names invalid path 'home@0': 'home' is not a parallel state"),
    NameRow([.target("deck/left@0")], "transition 'go' names invalid path 'deck/left@0': 'deck/left' is not a parallel state"),
    NameRow([.target("/home")], "transition 'go' names invalid path '/home': empty component"),
    NameRow([.target("/")], "transition 'go' names invalid path '/': empty component"),
    NameRow([.target("home/")], "transition 'go' names invalid path 'home/': empty component"),
    NameRow([.target("c//c1")], "transition 'go' names invalid path 'c//c1': empty component"),
    NameRow([.target("c/c1/")], "transition 'go' names invalid path 'c/c1/': empty component"),
    NameRow([.target("//")], "transition 'go' names invalid path '//': empty component"),
    NameRow([.target("@0")], "transition 'go' names invalid path '@0': empty component"),
    NameRow([.target("@")], "transition 'go' names invalid path '@': '@' has no valid region index"),
    NameRow([.target("c/c2@")], "transition 'go' names invalid path 'c/c2@': 'c2@' has no valid region index"),
    NameRow([.target("c/c2@x")], "transition 'go' names invalid path 'c/c2@x': 'c2@x' has no valid region index"),
    NameRow([.target("c/c2@-1")], "transition 'go' names invalid path 'c/c2@-1': 'c2@-1' has no valid region index"),
    NameRow([.target("c/c2@1a")], "transition 'go' names invalid path 'c/c2@1a': 'c2@1a' has no valid region index"),
    NameRow([.target("c/c2@ 1")], "transition 'go' names invalid path 'c/c2@ 1': 'c2@ 1' has no valid region index"),
    NameRow([.target("c/c2@+1")], "transition 'go' names invalid path 'c/c2@+1': 'c2@+1' has no valid region index"),
    NameRow([.target("c/c2@\u{661}")], "transition 'go' names invalid path 'c/c2@\u{661}': 'c2@\u{661}' has no valid region index"),
    NameRow([.target("deck@0@1")], "transition 'go' names invalid path 'deck@0@1': 'deck@0@1' has no valid region index"),
    NameRow([.target("c/c2@1.0/c223")], "transition 'go' names invalid path 'c/c2@1.0/c223': 'c2@1.0' has no valid region index"),
    NameRow([.target("c/c2@99999999999999999999999")], "transition 'go' names invalid path 'c/c2@99999999999999999999999': 'c2@99999999999999999999999' has no valid region index"),
    NameRow([.target("c/c2@00/c213")], nil),
    NameRow([.target("c/c2@01/c223")], nil),
    NameRow([.target("c/c2@0")], nil),
    NameRow([.target("c/c2@1")], nil),
    NameRow([.add("lobby")], nil),
    NameRow([.add("in progress")], nil),
    NameRow([.add("on-hold")], nil),
    NameRow([.add("a_b")], nil),
    NameRow([.add("x1")], nil),
    NameRow([.add("Home")], nil),
    NameRow([.add("\u{E9}tat")], nil),
    NameRow([.add("e\u{301}tat")], nil),
    NameRow([.add("\u{C5}ngstr\u{F6}m")], nil),
    NameRow([.add("\u{D55C}\u{AE00}")], nil),
    NameRow([.add("\u{3A9}mega")], nil),
    NameRow([.add("\u{430}")], nil),
    NameRow([.add("\u{65E5}\u{672C}")], nil),
    NameRow([.add("")], "empty name in addState"),
    NameRow([.add("a/")], "empty name in addState"),
    NameRow([.add("home/")], "empty name in addState"),
    NameRow([.add("/a")], "empty name in addState('/a')"),
    NameRow([.add("//a")], "addState('//a') names invalid path '/': empty component"),
    NameRow([.add("c//x")], "addState('c//x') names invalid path 'c/': empty component"),
    NameRow([.add("a@b")], "addState: state name 'a@b' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("a@0")], "addState: state name 'a@0' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("a,b")], "addState: state name 'a,b' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("x,")], "addState: state name 'x,' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("@")], "addState: state name '@' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("c/x@1")], "addState: state name 'x@1' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("c/c2@1")], "addState: state name 'c2@1' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("deck/a,b")], "addState: state name 'a,b' contains '/', '@' or ',', which separate path components"),
    NameRow([.add("nope/paused")], "addState('nope/paused') names undeclared state 'nope'"),
    NameRow([.add("nope/deeper/x")], "addState('nope/deeper/x') names invalid path 'nope/deeper': 'the root' has no child 'nope'"),
    NameRow([.add("idle/x")], "addState('idle/x') names ambiguous state 'idle': 'player/idle' or 'recorder/idle'"),
    NameRow([.add("c/c2@2/c213")], "addState('c/c2@2/c213') names invalid path 'c/c2@2': 'c/c2' has 2 regions, no region 2"),
    NameRow([.add("c/c2/x")], nil),
    NameRow([.add("c/c2@0/c213")], nil),
    NameRow([.add("c/c2@1/c223")], nil),
    NameRow([.add("c/c2@0/c214")], nil),
    NameRow([.add("c/c2@1/c224")], nil),
    NameRow([.add("c/c2@1/c223/deep")], nil),
    NameRow([.add("c/c2@0/c214"), .target("c214")], nil),
    NameRow([.add("c/c2@0/c214"), .target("c/c2@0/c214")], nil),
    NameRow([.add("c/c2@0/c214"), .target("c/c2@1/c214")], "transition 'go' names invalid path 'c/c2@1/c214': 'c/c2@1' has no child 'c214'"),
    NameRow([.add("c/c2@1/c223"), .target("c223")], nil),
    NameRow([.add("player/idle/deep")], nil),
    NameRow([.add("player/idle/deep"), .target("deep")], nil),
    NameRow([.add("player/idle/deep"), .addIn("idle/deep", in: "player"), .target("deep")], nil),
    NameRow([.add("player/idle/deep"), .addIn("idle/deep", in: "recorder"), .target("deep")], "transition 'go' names ambiguous state 'deep': 'player/idle/deep' or 'recorder/idle/deep'"),
    NameRow([.add("player/paused"), .target("paused")], nil),
    NameRow([.parallel("home", regions: ["x"])], "state 'home' is declared twice with different kinds"),
    NameRow([.historyIn("idle", in: "player")], "state 'idle' is declared twice with different kinds"),
    NameRow([.addIn("hist", in: "player")], "state 'hist' is declared twice with different kinds"),
    NameRow([.add("player/hist")], "state 'hist' is declared twice with different kinds"),
    NameRow([.regionsIn("c1", regions: [["z"]], in: "c")], "state 'c1' is declared twice with different kinds"),
    NameRow([.add("c"), .add("c"), .addIn("c1", in: "c")], nil),
    NameRow([.parallel("deck", regions: ["left"]), .add("deck@0/spin")], nil),
    NameRow([.add("player/idle/deep"), .target("player/idle/deep")], nil),
    NameRow([.add("player/idle/deep"), .target("recorder/idle/deep")], "transition 'go' names invalid path 'recorder/idle/deep': 'recorder/idle' has no child 'deep'"),
    NameRow([.add("player/new"), .add("recorder/new"), .target("new")], "transition 'go' names ambiguous state 'new': 'player/new' or 'recorder/new'"),
    NameRow([.add("player/new"), .add("recorder/new"), .target("player/new")], nil),
    NameRow([.add("deck@0/spin/fast")], nil),
    NameRow([.add("deck@1/r1")], nil),
    NameRow([.add("deck@2/r1")], "addState('deck@2/r1') names invalid path 'deck@2': 'deck' has 2 regions, no region 2"),
    NameRow([.add("home@0/x")], "addState('home@0/x') names invalid path 'home@0': 'home' is not a parallel state"),
    NameRow([.add("c/c2@x/c213")], "addState('c/c2@x/c213') names invalid path 'c/c2@x': 'c2@x' has no valid region index"),
    NameRow([.add("player/paused"), .target("paused")], nil),
    NameRow([.add("taping/sub"), .target("taping/sub")], "transition 'go' names invalid path 'taping/sub': 'the root' has no child 'taping'"),
    NameRow([.add("taping/sub"), .target("recorder/taping/sub")], nil),
    NameRow([.add("later/x"), .add("later")], nil),
    NameRow([.add("later/x"), .add("later"), .target("later/x")], nil),
    NameRow([.add("a/b/c"), .add("a/b"), .add("a")], nil),
    NameRow([.add("x/y"), .add("y/x")], "addState('x/y') names undeclared state 'x'"),
    NameRow([.addIn("idle", in: "player")], nil),
    NameRow([.addIn("extra", in: "player"), .target("extra")], nil),
    NameRow([.addIn("paused/sub", in: "player")], nil),
    NameRow([.addIn("idle/sub", in: "recorder")], nil),
    NameRow([.addIn("idle/sub", in: "recorder"), .target("recorder/idle/sub")], nil),
    NameRow([.addIn("c1/sub", in: "c"), .target("c/c1/sub")], nil),
    NameRow([.addIn("x/y", in: "player")], "addState('x/y') names undeclared state 'x'"),
    NameRow([.addIn("taping/y", in: "player")], nil),
    NameRow([.addIn("taping/y", in: "player"), .target("recorder/taping/y")], nil),
    NameRow([.addIn("c2@0/c214", in: "c")], "addState('c2@0/c214') names invalid path 'c2@0': 'the root' has no child 'c2'"),
    NameRow([.addIn("c/c2@0/c214", in: "c")], nil),
    NameRow([.addIn("idle/sub", in: "home")], "addState('idle/sub') names ambiguous state 'idle': 'player/idle' or 'recorder/idle'"),
    NameRow([.addIn("", in: "player")], "empty name in addState"),
    NameRow([.addIn("a,b", in: "player")], "addState: state name 'a,b' contains '/', '@' or ',', which separate path components"),
    NameRow([.addIn("idle", in: "player"), .target("player/idle")], nil),
    NameRow([.addIn("spare", in: "recorder"), .addIn("spare", in: "player"), .target("spare")], "transition 'go' names ambiguous state 'spare': 'player/spare' or 'recorder/spare'"),
    NameRow([.targetIn("idle", in: "player")], nil),
    NameRow([.targetIn("idle", in: "recorder")], nil),
    NameRow([.targetIn("idle", in: "c")], "transition 'go' names ambiguous state 'idle': 'player/idle' or 'recorder/idle'"),
    NameRow([.targetIn("paused", in: "player")], nil),
    NameRow([.targetIn("taping", in: "player")], nil),
    NameRow([.targetIn("c213", in: "c")], nil),
    NameRow([.targetIn("c2@0/c213", in: "c")], "transition 'go' names invalid path 'c2@0/c213': 'the root' has no child 'c2'"),
    NameRow([.targetIn("c/c2@0/c213", in: "c")], nil),
    NameRow([.targetIn("nope", in: "player")], "transition 'go' names undeclared state 'nope'"),
    NameRow([.targetIn("", in: "player")], "empty name in transition 'go'"),
    NameRow([.targetIn("player/idle", in: "player")], nil),
    NameRow([.targetIn("recorder/idle", in: "player")], nil),
    NameRow([.add("caf\u{E9}"), .target("cafe\u{301}")], nil),
    NameRow([.add("cafe\u{301}"), .target("caf\u{E9}")], nil),
    NameRow([.add("caf\u{E9}"), .add("cafe\u{301}")], nil),
    NameRow([.addIn("caf\u{E9}", in: "player"), .target("player/cafe\u{301}")], nil),
    NameRow([.add("player/caf\u{E9}"), .targetIn("cafe\u{301}", in: "player")], nil),
    NameRow([.add("\u{E9}tat"), .target("e\u{301}tat")], nil),
    NameRow([.add("e\u{301}tat"), .target("\u{E9}tat")], nil),
    NameRow([.add("\u{E9}tat"), .add("e\u{301}tat")], nil),
    NameRow([.addIn("\u{E9}tat", in: "player"), .target("player/e\u{301}tat")], nil),
    NameRow([.add("player/\u{E9}tat"), .targetIn("e\u{301}tat", in: "player")], nil),
    NameRow([.add("\u{D55C}"), .target("\u{1112}\u{1161}\u{11AB}")], nil),
    NameRow([.add("\u{1112}\u{1161}\u{11AB}"), .target("\u{D55C}")], nil),
    NameRow([.add("\u{D55C}"), .add("\u{1112}\u{1161}\u{11AB}")], nil),
    NameRow([.addIn("\u{D55C}", in: "player"), .target("player/\u{1112}\u{1161}\u{11AB}")], nil),
    NameRow([.add("player/\u{D55C}"), .targetIn("\u{1112}\u{1161}\u{11AB}", in: "player")], nil),
    NameRow([.add("\u{C5}"), .target("\u{212B}")], nil),
    NameRow([.add("\u{212B}"), .target("\u{C5}")], nil),
    NameRow([.add("\u{C5}"), .add("\u{212B}")], nil),
    NameRow([.addIn("\u{C5}", in: "player"), .target("player/\u{212B}")], nil),
    NameRow([.add("player/\u{C5}"), .targetIn("\u{212B}", in: "player")], nil),
    NameRow([.add("\u{C5}"), .target("A\u{30A}")], nil),
    NameRow([.add("A\u{30A}"), .target("\u{C5}")], nil),
    NameRow([.add("\u{C5}"), .add("A\u{30A}")], nil),
    NameRow([.addIn("\u{C5}", in: "player"), .target("player/A\u{30A}")], nil),
    NameRow([.add("player/\u{C5}"), .targetIn("A\u{30A}", in: "player")], nil),
    NameRow([.add("q\u{323}\u{307}"), .target("q\u{307}\u{323}")], nil),
    NameRow([.add("q\u{307}\u{323}"), .target("q\u{323}\u{307}")], nil),
    NameRow([.add("q\u{323}\u{307}"), .add("q\u{307}\u{323}")], nil),
    NameRow([.addIn("q\u{323}\u{307}", in: "player"), .target("player/q\u{307}\u{323}")], nil),
    NameRow([.add("player/q\u{323}\u{307}"), .targetIn("q\u{307}\u{323}", in: "player")], nil),
    NameRow([.add("\u{1E69}"), .target("s\u{323}\u{307}")], nil),
    NameRow([.add("s\u{323}\u{307}"), .target("\u{1E69}")], nil),
    NameRow([.add("\u{1E69}"), .add("s\u{323}\u{307}")], nil),
    NameRow([.addIn("\u{1E69}", in: "player"), .target("player/s\u{323}\u{307}")], nil),
    NameRow([.add("player/\u{1E69}"), .targetIn("s\u{323}\u{307}", in: "player")], nil),
    NameRow([.add("\u{F1}and\u{FA}"), .target("n\u{303}andu\u{301}")], nil),
    NameRow([.add("n\u{303}andu\u{301}"), .target("\u{F1}and\u{FA}")], nil),
    NameRow([.add("\u{F1}and\u{FA}"), .add("n\u{303}andu\u{301}")], nil),
    NameRow([.addIn("\u{F1}and\u{FA}", in: "player"), .target("player/n\u{303}andu\u{301}")], nil),
    NameRow([.add("player/\u{F1}and\u{FA}"), .targetIn("n\u{303}andu\u{301}", in: "player")], nil),
    NameRow([.add("caf\u{E9}"), .add("cafe\u{301}"), .target("caf\u{E9}")], nil),
    NameRow([.add("player/caf\u{E9}"), .add("recorder/cafe\u{301}"), .target("cafe\u{301}")], "transition 'go' names ambiguous state 'cafe\u{301}': 'player/caf\u{E9}' or 'recorder/cafe\u{301}'"),
    NameRow([.add("e"), .target("\u{E9}")], "transition 'go' names undeclared state '\u{E9}'"),
    NameRow([.add("\u{E9}"), .target("e")], "transition 'go' names undeclared state 'e'"),
    NameRow([.add("a"), .target("\u{430}")], "transition 'go' names undeclared state '\u{430}'"),
    NameRow([.add("\u{430}"), .target("a")], "transition 'go' names undeclared state 'a'"),
    NameRow([.add("cafe"), .target("caf\u{E9}")], "transition 'go' names undeclared state 'caf\u{E9}'"),
    NameRow([.add("A"), .target("\u{C5}")], "transition 'go' names undeclared state '\u{C5}'"),
    NameRow([.add("o"), .target("\u{F6}")], "transition 'go' names undeclared state '\u{F6}'"),
    NameRow([.add("\u{E9}"), .target("\u{C9}")], "transition 'go' names undeclared state '\u{C9}'"),
    NameRow([.add("\u{3A9}mega"), .target("\u{2126}mega")], nil),
    NameRow([.add("\u{FB01}ne"), .target("fine")], "transition 'go' names undeclared state 'fine'"),
    NameRow([.add("x\u{E9}"), .target("c/c2@0/x\u{E9}")], "transition 'go' names invalid path 'c/c2@0/x\u{E9}': 'c/c2@0' has no child 'x\u{E9}'"),
    NameRow([.add("c/c2@0/x\u{E9}"), .target("c/c2@0/xe\u{301}")], nil),
    NameRow([.add("c/c2@1/\u{E9}"), .target("c/c2@1/e\u{301}")], nil),
    NameRow([.add("deck@0/\u{C5}"), .target("deck/left/\u{212B}")], nil),
  ]
}
