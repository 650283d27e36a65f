import Foundation
import StateMachines
import Testing

/// Names compare by canonical equivalence on every path (Semantics §Names): random flat
/// definitions whose names are drawn from a pool of canonically equal but byte-different
/// spellings, driven through every string-keyed entry point with random spellings and compared
/// with a reference model that compares names with `String ==`.
@Suite("Canonical names against a String == model")
struct CanonicalNameTests {
  /// Groups of spellings that `String ==` calls equal; different groups are different names
  /// (`"e"` and `"é"`, Latin and Cyrillic `"а"` look alike and are not equal).
  static let pool: [[String]] = [
    ["é", "e\u{301}"],
    ["état", "e\u{301}tat"],
    ["\u{D55C}", "\u{1112}\u{1161}\u{11AB}"],
    ["\u{00C5}", "\u{212B}", "A\u{30A}"],
    ["q\u{0323}\u{0307}", "q\u{0307}\u{0323}"],
    ["K", "\u{212A}"],
    ["x;", "x\u{037E}"],
    ["e"], ["a"], ["\u{0430}"], ["ok"], ["ы"], ["Å!"],
  ]

  /// The reference: states and events as groups of the pool, compared with `==`.
  struct Reference {
    var states: [String] = []  // declared spellings, first declaration wins
    var transitions: [(event: String, from: String, to: String)] = []
    var current = 0

    func stateIndex(_ name: String) -> Int? { states.firstIndex { $0 == name } }
    func target(of event: String) -> Int? {
      transitions.first { $0.event == event && $0.from == states[current] }.flatMap { stateIndex($0.to) }
    }
    var events: [String] { transitions.reduce(into: []) { list, t in if !list.contains(t.event) { list.append(t.event) } } }
  }

  static func spelling(_ random: inout SeededGenerator, of group: Int) -> String { random.pick(pool[group]) }

  @Test("every call agrees with the reference, on 2,000 random definitions")
  func againstReference() throws {
    var random = SeededGenerator(seed: 26)
    var calls = 0
    for _ in 0..<2_000 {
      var reference = Reference()
      let stateGroups = Array((0..<Self.pool.count).shuffled(using: &random).prefix(Int.random(in: 2...5, using: &random)))
      let eventGroups = Array((0..<Self.pool.count).shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
      var declarations: [String] = []
      for group in stateGroups {
        let name = Self.spelling(&random, of: group)
        declarations.append(name)
        // Declared again in another spelling: one state (set semantics).
        if random.chance(0.3) { declarations.append(Self.spelling(&random, of: group)) }
        reference.states.append(name)
      }
      for event in eventGroups {
        for from in stateGroups where random.chance(0.6) {
          let to = random.pick(stateGroups)
          let transition = (
            event: Self.spelling(&random, of: event), from: Self.spelling(&random, of: from),
            to: Self.spelling(&random, of: to))
          reference.transitions.append(transition)
        }
      }
      let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
        for name in declarations { sm.addState(name) }
        for t in reference.transitions { sm.when(t.event, transitionFrom: t.from, to: t.to) }
      })
      #expect(definition.states == reference.states)
      let machine = DynamicStateMachine(definition)
      for _ in 0..<30 {
        calls += 1
        let group = Int.random(in: 0..<Self.pool.count, using: &random)
        let name = Self.spelling(&random, of: group)
        let isEvent = reference.events.contains { $0 == name }
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
          let target = isEvent ? reference.target(of: name) : nil
          #expect(machine.fire(name) == (target != nil), "fire(\(name.unicodeScalars.map { $0.value }))")
          if let target { reference.current = target }
        case 1:
          let target = isEvent ? reference.target(of: name) : nil
          let threw = (try? machine.fireOrThrow(name)) == nil
          #expect(threw == (target == nil))
          if let target { reference.current = target }
        case 2:
          #expect(machine.can(name) == (isEvent && reference.target(of: name) != nil))
          #expect(definition.can(definition.eventID(name), on: machine) == machine.can(name))
        case 3:
          #expect(machine.isInState(name) == (reference.states[reference.current] == name))
          #expect(definition.isInState(definition.stateID(name), on: machine) == machine.isInState(name))
        case 4:
          let known = reference.stateIndex(name)
          #expect(((try? machine.restoreState(name)) != nil) == (known != nil))
          if let known { reference.current = known }
        case 5:
          let known = reference.stateIndex(name) != nil
          #expect(((try? machine.subscribeToEntry(at: name) { _ in }) != nil) == known)
          #expect(((try? machine.subscribeToExit(at: name) { _ in }) != nil) == known)
        case 6:
          let target = isEvent ? reference.target(of: name) : nil
          #expect(definition.fire(definition.eventID(name), on: machine) == (target != nil))
          if let target { reference.current = target }
        default:
          #expect(machine.post(name) == (isEvent && reference.target(of: name) != nil))
          if isEvent, let target = reference.target(of: name) { reference.current = target }
        }
        // `state` reports the declared spelling, byte for byte.
        #expect(machine.state.utf8.elementsEqual(reference.states[reference.current].utf8))
      }
    }
    #expect(calls == 60_000)
  }
}

/// A `Codable` model. (The macro's names must form Swift identifiers; `"K"` has a non-ASCII
/// spelling, U+212A KELVIN SIGN.)
@StateMachine
final class KelvinProbe: Codable {
  static let stateMachine = StateMachineDefinition<KelvinProbe> { sm in
    sm.addState("K")
    sm.addState("warm")
    sm.when("heat", transitionFrom: "K", to: "warm")
  }
}

@Suite("Canonical names in generated and decoded models")
struct CanonicalGeneratedModelTests {
  @Test("a saved state decodes in either spelling; state reports the declared one")
  func decodesEitherSpelling() throws {
    let encoded = try String(decoding: JSONEncoder().encode(KelvinProbe()), as: UTF8.self)
    #expect(encoded.contains("\"K\""))
    for spelling in ["K", "\u{212A}"] {
      let saved = encoded.replacingOccurrences(of: "\"K\"", with: "\"\(spelling)\"")
      let probe = try JSONDecoder().decode(KelvinProbe.self, from: Data(saved.utf8))
      #expect(probe.isK)
      #expect(probe.state.utf8.elementsEqual("K".utf8))
      #expect(probe.isInState("\u{212A}"))
      #expect(probe.fire("heat"))
      #expect(probe.isWarm)
      #expect(throws: Never.self) { try probe.restoreState("\u{212A}") }
      #expect(probe.state == "K")
    }
    let wrong = encoded.replacingOccurrences(of: "\"K\"", with: "\"k\"")
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(KelvinProbe.self, from: Data(wrong.utf8)) }
  }
}

@Suite("Canonical names in loaded definitions")
struct CanonicalLoadedNameTests {
  @Test("a TB JSON definition finds a target spelled the other way")
  func tbJSON() throws {
    let text = #"""
      {"name": "sm", "states": [
        {"name": "\u00e9tat", "type": "state"},
        {"name": "fin", "type": "state"}],
       "transitions": [{"type": "simple", "kind": "external", "name": "go", "source": "e\u0301tat", "target": "fin"}]}
      """#
    guard let definition = try? StateMachineDefinition<DynamicStateMachine>(json: Data(text.utf8)) else {
      Issue.record("the TB document did not load")
      return
    }
    let machine = DynamicStateMachine(definition)
    #expect(machine.fire("go"))
    #expect(machine.state == "fin")
  }
}
