import Foundation
import StateMachines
import Testing

/// Bad input (Semantics §Names): every public entry point that takes a name answers `false`,
/// `nil` or a typed error for an unknown, empty, malformed or huge name, on every kind of model,
/// and changes nothing. A crash here kills the test process, which fails the run.
@Suite("Bad names through every entry point")
struct BadNameTests {
  /// Hostile names: empty, unknown, path-shaped, region-shaped, control characters, huge.
  static let hostileNames: [String] = [
    "", " ", "typo", "Active", "active ", "/", "//", "a/", "/a", "a//b", "@", "@0", "a@", "a@-1", "a@99",
    "a@1@2", "c/c2@2/c213", "c/c2@-1/c213", "c/c2@1/c223x", "nope/paused", "*", ".", "..", "done.state.",
    "\0", "a\0b", "\u{FFFF}", "\u{10FFFF}", "😀", "e\u{301}", "\u{212A}", "\n", "\t",
    String(repeating: "x", count: 100_000), String(repeating: "a/", count: 5_000),
    String(repeating: "@9", count: 5_000),
  ]

  /// A random hostile name from `random`: bytes decoded as UTF-8 (with replacement), names of
  /// the pool with noise, random paths.
  static func randomName(_ random: inout SeededGenerator) -> String {
    switch random.next() % 4 {
    case 0:
      let bytes = (0..<Int(random.next() % 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      return String(decoding: bytes, as: UTF8.self)
    case 1:
      let parts = (0..<Int(random.next() % 5)).map { _ in hostileNames[Int(random.next() % 20)] }
      return parts.joined(separator: random.next() % 2 == 0 ? "/" : "@")
    case 2:
      return hostileNames[Int(random.next() % UInt64(hostileNames.count))] + String(random.next() % 100)
    default:
      return String(decoding: (0..<Int(random.next() % 8)).map { _ in UInt8(0x40 + random.next() % 0x40) }, as: UTF8.self)
    }
  }

  /// The hostile names and 300 random ones, skipping any that the machine happens to know.
  static func names(known: [String]) -> [String] {
    var random = SeededGenerator(seed: 0x5EED)
    let all = hostileNames + (0..<300).map { _ in randomName(&random) }
    return all.filter { name in !known.contains { $0 == name } }
  }

  /// Drives every string-keyed entry point of `object` with `name`, which it does not know, and
  /// checks each answer and that the state did not change.
  static func drive<M: StateMachineObject>(_ object: M, with name: String, state: () -> String) {
    let before = state()
    #expect(!object.fire(name), "fire(\(name.debugDescription.prefix(40)))")
    #expect(!object.fire(name, payload: 1))
    #expect(throws: StateMachineError.self) { try object.fireOrThrow(name) }
    #expect(!object.can(name))
    #expect(!object.isInState(name))
    #expect(throws: StateMachineError.self) { try object.restoreState(name) }
    #expect(throws: StateMachineError.self) { _ = try object.subscribeToEntry(at: name) { _ in } }
    #expect(throws: StateMachineError.self) { _ = try object.subscribeToExit(at: name) { _ in } }
    #expect(throws: StateMachineError.self) { _ = try object.subscribeToInternalTransition("tick", at: name) { _ in } }
    let definition = object.stateMachineDefinition
    let model = object._$stateMachineModel
    #expect(!definition.fire(definition.eventID(name), on: model))
    #expect(!definition.can(definition.eventID(name), on: model))
    #expect(!definition.isInState(definition.stateID(name), on: model))
    #expect(state() == before, "state changed on \(name.debugDescription.prefix(40))")
  }

  static func checkFlat<M: StateMachineObject>(_ make: () -> M, known: [String], state: (M) -> String) {
    for name in names(known: known) {
      let fresh = make()  // not started yet
      drive(fresh, with: name) { state(fresh) }
      let started = make()
      try? started.startStateMachine()
      drive(started, with: name) { state(started) }
    }
  }

  @Test("a plain generated model, started or not")
  func plainModel() {
    Self.checkFlat({ Subscription() }, known: SubscriptionMachine.states + SubscriptionMachine.events) { $0.state }
  }

  @Test("a Sendable model (with a lock), started or not")
  func sendableModel() {
    Self.checkFlat({ SendableBeacon(id: 1) }, known: ["dark", "lit", "light"]) { $0.state }
  }

  @MainActor
  @Test("an actor-isolated model, started or not")
  func actorIsolatedModel() {
    Self.checkFlat({ Screen() }, known: ["hidden", "visible", "show", "hide"]) { $0.state }
  }

  @Test("a generated statechart model with nested and parallel states, started or not")
  func generatedStatechart() {
    let known = ["off", "on", "stopped", "playing", "resume", "deck", "audio", "loud", "muted", "video", "sd", "hd",
      "power", "play", "on/stopped", "on/playing", "on/resume", "deck/audio", "deck/video"]
    Self.checkFlat({ Jukebox() }, known: known) { $0.state }
    let playing = Jukebox()
    #expect(playing.fire("power") && playing.fire("play"))
    for name in Self.names(known: known).prefix(60) { Self.drive(playing, with: name) { playing.state } }
  }

  @Test("a flat DynamicStateMachine, started or not")
  func flatDynamic() throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      sm.addState("a")
      sm.addState("b")
      sm.when("go", transitionFrom: "a", to: "b")
    })
    Self.checkFlat({ DynamicStateMachine(definition) }, known: ["a", "b", "go"]) { $0.state }
  }

  @Test("a statechart DynamicStateMachine with regions, started or not, and after a transition")
  func statechartDynamic() throws {
    let log = TestRecorder()
    let definition = TBScenarioFixture.definition(log: log)
    #expect(definition.definitionError == nil)
    let known = TBScenarioFixture.allStates + definition.events
    Self.checkFlat({ DynamicStateMachine(definition) }, known: known) { $0.state }
    let moved = DynamicStateMachine(definition)
    _ = moved.fire(definition.events[0])  // wherever it leads: the drive below checks from there
    for name in Self.names(known: known).prefix(60) { Self.drive(moved, with: name) { moved.state } }
  }

  @Test("an invalid definition answers every call without crashing")
  func invalidDefinition() {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("a")
      sm.when("go", transitionFrom: "a", to: "missing")
    }
    #expect(definition.definitionError != nil)
    for name in Self.names(known: []).prefix(60) {
      let machine = DynamicStateMachine(definition)
      Self.drive(machine, with: name) { machine.state }
      #expect(!machine.fire("go"))
    }
  }
}
