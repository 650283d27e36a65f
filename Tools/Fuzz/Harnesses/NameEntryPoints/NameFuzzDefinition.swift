// The definition the names harness drives: a fixed shape, flat or a statechart, whose states and
// events get names from a pool of awkward spellings and from the input.
import Foundation
import StateMachines

/// Names in two spellings that Swift's `String ==` finds equal (canonical equivalence) though
/// their bytes differ, and names that look alike but are not equal (`e` and `é`, Latin `a` and
/// Cyrillic `а`). The fuzz dictionaries hold the same pool.
enum NameFuzzPool {
  static let states: [(String, String)] = [
    ("idle", "idle"),
    ("\u{E9}tat", "e\u{301}tat"),
    ("a", "a"),
    ("\u{430}", "\u{430}"),
    ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}"),
    ("\u{C5}", "\u{212B}"),
    ("K", "\u{212A}"),
    ("s\u{323}\u{307}", "s\u{307}\u{323}"),
    ("e", "e"),
    ("\u{E9}", "e\u{301}"),
    ("on", "on"),
    ("q\u{307}\u{323}", "q\u{323}\u{307}"),
    ("\u{1E69}x", "s\u{307}\u{323}x"),
    ("b", "b"),
    ("\u{C5}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m"),
    ("off", "off"),
    ("\u{D55C}\u{AE00}", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}"),
    ("c", "c"),
    ("z", "z"),
    ("\u{430}b", "\u{430}b"),
  ]
  static let events: [(String, String)] = [
    ("go", "go"),
    ("\u{E9}v", "e\u{301}v"),
    ("e", "e"),
    ("\u{E9}", "e\u{301}"),
    ("\u{1112}\u{1161}\u{11AB}", "\u{D55C}"),
    ("\u{212B}", "\u{C5}"),
    ("\u{212A}", "K"),
    ("a", "a"),
    ("\u{430}", "\u{430}"),
    ("s\u{307}\u{323}", "\u{1E69}"),
  ]
}

/// A definition built from the input, and every spelling of a name it declares.
struct NameFuzzDefinition {
  let definition: StateMachineDefinition<DynamicStateMachine>
  /// Every name the definition knows, as declared: states (canonical paths), events, bare names,
  /// the paths and spellings the transitions used. Calls pick from these.
  let known: [String]
  /// The first of `known` that `==` each name, by `String` key (whose hashing is canonical).
  let declaredSpelling: [String: String]
  /// The definition's events and states, by `String` key.
  let eventSet: Set<String>
  let stateSet: Set<String>
  /// `definition.states`, which a statechart computes on each call.
  let states: [String]
  /// Whether the definition is flat: then a name no state `==` is no state.
  let isFlat: Bool

  init(_ input: NameFuzzInput, _ setup: FuzzDriver.Setup) {
    let chart = input.isChart
    let stateCount = chart ? 17 : 6
    let eventCount = chart ? 9 : 7
    func spelling(_ pool: [(String, String)], _ slot: Int, second: Bool) -> String {
      let pair = pool[(slot + input.rotation) % pool.count]
      return second ? pair.1 : pair.0
    }
    let declared = input.declaresSecondSpelling
    let other = declared != input.referencesOtherSpelling
    var states = (0..<stateCount).map { spelling(NameFuzzPool.states, $0, second: declared) }
    var stateRefs = (0..<stateCount).map { spelling(NameFuzzPool.states, $0, second: other) }
    var events = (0..<eventCount).map { spelling(NameFuzzPool.events, $0, second: declared) }
    var eventRefs = (0..<eventCount).map { spelling(NameFuzzPool.events, $0, second: other) }
    for record in input.records.prefix(input.definitionNameCount) {
      let slot = Int(record.first ?? 0)
      let name = NameFuzzInput.name(record.dropFirst())
      if slot & 0x80 != 0 {
        events[(slot & 0x7F) % eventCount] = name
        eventRefs[(slot & 0x7F) % eventCount] = name
      } else {
        states[slot % stateCount] = name
        stateRefs[slot % stateCount] = name
      }
    }
    let paths = chart ? Self.chartPaths(stateRefs) : stateRefs
    let targets = chart && input.referencesByPath ? paths : stateRefs
    let omitted = input.omittedTransitions
    definition = StateMachineDefinition { sm in
      setup.limit(sm)
      sm.clock = setup.clock
      // The first use of an event declares it; the later ones use the other spelling.
      let built = Shape(sm: sm, states: states, refs: targets, events: events, eventRefs: eventRefs, omitted: omitted)
      if chart { built.chart() } else { built.flat() }
    }
    known = definition.states + definition.events + states + events + stateRefs + eventRefs + paths
    var spellings: [String: String] = [:]
    for name in known where spellings[name] == nil { spellings[name] = name }
    declaredSpelling = spellings
    eventSet = Set(definition.events)
    self.states = definition.states
    stateSet = Set(self.states)
    isFlat = !chart && !definition.states.contains { $0.contains("/") }
  }

  /// The canonical path of each slot of the chart's shape, from the names the transitions use.
  static func chartPaths(_ s: [String]) -> [String] {
    [
      s[0], "\(s[0])/\(s[1])", "\(s[0])/\(s[2])", "\(s[0])/\(s[2])/\(s[3])", "\(s[0])/\(s[2])/\(s[4])",
      s[5], "\(s[5])@0/\(s[6])", "\(s[5])@0/\(s[7])", "\(s[5])@1/\(s[8])", "\(s[5])@1/\(s[9])",
      s[10], "\(s[10])/\(s[11])", "\(s[10])/\(s[11])/\(s[12])", "\(s[10])/\(s[11])/\(s[13])",
      "\(s[10])/\(s[14])", "\(s[10])/\(s[14])/\(s[15])", s[16],
    ]
  }
}

/// The fixed shapes: which states exist and which transitions join them.
private struct Shape {
  let sm: StateMachineBuilder<DynamicStateMachine>
  let states: [String]
  let refs: [String]
  let events: [String]
  let eventRefs: [String]
  let omitted: Int

  /// Declares transition number `bit` unless the input leaves it out.
  func on(_ bit: Int, _ declare: () -> Void) {
    if omitted & (1 << bit) == 0 { declare() }
  }

  /// Six states, the last final; events shared between states, a wildcard, an internal
  /// transition, a terminating one, guards that pass and fail.
  func flat() {
    let (s, r, e, f) = (states, refs, events, eventRefs)
    for index in 0..<5 { sm.addState(s[index]) }
    sm.addFinalState(s[5])
    on(0) { sm.when(e[0], transitionFrom: r[0], to: r[1]) }
    on(1) { sm.when(e[1], transitionFrom: r[1], to: r[2]) }
    on(2) { sm.when(e[2], transitionFrom: [r[2], r[3]], to: r[0]) }
    on(3) { sm.when(e[3], transitionFrom: r[0], to: r[3]) }
    on(4) { sm.when(f[3], transitionFrom: r[3], to: r[4]) }
    on(5) { sm.when(e[4], transitionFromAnyStateTo: r[0]) }
    on(6) { sm.when(e[5], transitionFrom: r[1], to: r[1], kind: .internal) }
    on(7) { sm.die(on: e[6], from: [r[4]]) }
    on(8) { sm.when(f[1], transitionFrom: r[4], to: r[5]) }
    on(9) { sm.when(f[0], transitionFrom: r[2], to: r[4]).guarded { _ in false } }
    on(10) { sm.when(f[2], transitionFrom: r[4], to: r[2]).guarded { _ in true } }
  }

  /// A compound state with a nested compound, a parallel state with anonymous regions, one with
  /// named regions, and a final state; transitions within and across them, a fork, a wildcard.
  func chart() {
    let (s, r, e, f) = (states, refs, events, eventRefs)
    sm.addState(s[0]) { c in
      c.addState(s[1])
      c.addState(s[2]) { $0.addState(s[3]); $0.addState(s[4]) }
    }
    sm.addParallelState(s[5], regions: [[s[6], s[7]], [s[8], s[9]]])
    sm.addParallelState(s[10]) { p in
      p.addState(s[11]) { $0.addState(s[12]); $0.addState(s[13]) }
      p.addState(s[14]) { $0.addState(s[15]) }
    }
    sm.addFinalState(s[16])
    on(0) { sm.when(e[0], transitionFrom: r[1], to: r[2]) }
    on(1) { sm.when(e[1], transitionFrom: r[3], to: r[4]) }
    on(2) { sm.when(e[2], transitionFrom: r[0], to: r[5]) }
    on(3) { sm.when(e[3], transitionFrom: r[6], to: r[7]) }
    on(4) { sm.when(f[0], transitionFrom: r[8], to: r[9]) }
    on(5) { sm.when(e[4], transitionFrom: r[5], to: r[10]) }
    on(6) { sm.when(e[5], transitionFrom: r[12], to: r[13]) }
    on(7) { sm.when(e[6], transitionFrom: r[10], to: r[0]) }
    on(8) { sm.when(f[6], transitionFrom: r[0], to: r[0], kind: .internal) }
    on(9) { sm.when(e[7], transitionFrom: r[15], to: r[16]) }
    on(10) { sm.when(e[8], transitionFromAnyStateTo: r[1]) }
    on(11) { sm.when(f[5], transitionFrom: r[4], to: r[3]).guarded { _ in false } }
    on(12) { sm.when(f[7], transitionFrom: r[1], to: [r[7], r[9]]) }
    on(13) { sm.when(f[3], transitionFrom: r[7], to: r[6], kind: .local) }
  }
}
