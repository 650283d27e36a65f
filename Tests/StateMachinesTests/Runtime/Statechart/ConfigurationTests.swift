import Foundation
import StateMachines
import Testing

/// A player with nested states, a parallel state and history, declared with the macro.
@StateMachine
final class Jukebox: Codable {
  static let stateMachine = StateMachineDefinition<Jukebox> { sm in
    sm.addState("off")
    sm.addState("on") { on in
      on.addState("stopped")
      on.addState("playing")
      on.addHistory("resume", .shallow)
    }
    sm.addParallelState("deck") { deck in
      deck.addState("audio") { $0.addState("loud"); $0.addState("muted") }
      deck.addState("video") { $0.addState("sd"); $0.addState("hd") }
    }
    sm.when("power", transitionFrom: "off", to: "on/resume")
    sm.when("power", transitionFrom: "on", to: "off")
    sm.when("play", transitionFrom: "stopped", to: "playing")
    sm.when("deck", transitionFrom: "off", to: "deck")
  }
}

/// `state`, `restoreState` and `Codable` of a hierarchical machine (Hierarchy §3, S1, S15).
@Suite("Configuration: state, restore and Codable (§3, S1, S15)")
struct ConfigurationTests {
  @Test("state is the active leaf's path; isX is true for every active ancestor")
  func state() {
    let jukebox = Jukebox()
    #expect(jukebox.state == "off")
    #expect(jukebox.power())
    #expect(jukebox.state == "on/stopped")
    #expect(jukebox.isOn && jukebox.isStopped && !jukebox.isOff)
    #expect(jukebox.activeStates == ["on", "on/stopped"])
  }

  @Test("shallow history re-enters the child that was active (S15)")
  func history() {
    let jukebox = Jukebox()
    jukebox.power()
    jukebox.play()
    jukebox.power()
    #expect(jukebox.state == "off")
    jukebox.power()
    #expect(jukebox.state == "on/playing")
  }

  @Test(
    "restoreState takes leaf paths, bare names and compound paths (defaults filled in)",
    arguments: [
      ("on/playing", "on/playing"), ("playing", "on/playing"), ("on", "on/stopped"),
      ("deck", "deck/audio/loud,deck/video/sd"), ("hd,muted", "deck/audio/muted,deck/video/hd")
    ])
  func restore(text: String, expected: String) throws {
    let jukebox = Jukebox()
    try jukebox.restoreState(text)
    #expect(jukebox.state == expected)
  }

  @Test(
    "restoreState rejects illegal configurations and keeps the machine as it was (S1, S20)",
    arguments: [
      ("on/playing,on/stopped", "illegal"), ("on/playing,off", "illegal"), ("nowhere", "unknown"),
      ("on/resume", "unknown"), ("", "unknown"), ("on/playing,", "unknown"),
    ])
  func illegal(text: String, kind: String) {
    let jukebox = Jukebox()
    jukebox.power()
    let error = stateMachineError { try jukebox.restoreState(text) }
    switch (kind, error) {
    case ("illegal", .illegalConfiguration(let state)?): #expect(state == text)
    case ("unknown", .unknownState?): break
    default: Issue.record("\(text): unexpected \(String(describing: error))")
    }
    #expect(jukebox.state == "on/stopped")
  }

  @Test("a parallel state named alone gets every region's default; a region left out is an error (S1)")
  func missingRegion() throws {
    let jukebox = Jukebox()
    let error = stateMachineError { try jukebox.restoreState("deck/audio/muted") }
    #expect(error == .illegalConfiguration("deck/audio/muted"))
    #expect(jukebox.state == "off")
    try jukebox.restoreState("deck")
    #expect(jukebox.activeLeaves == ["deck/audio/loud", "deck/video/sd"])
  }

  @Test("Codable keeps the configuration and the history (S15)")
  func codable() throws {
    let jukebox = Jukebox()
    jukebox.power()
    jukebox.play()
    jukebox.power()
    let data = try JSONEncoder().encode(jukebox)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("stateHistory"))
    let copy = try JSONDecoder().decode(Jukebox.self, from: data)
    #expect(copy.state == "off")
    copy.power()
    #expect(copy.state == "on/playing")
  }

  @Test("decoding an illegal configuration fails")
  func decodingIllegal() {
    let data = Data(#"{"_$stateMachineCodableStorage":"on/playing,on/stopped"}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Jukebox.self, from: data) }
  }

  @Test("stopStateMachine exits everything in exit order; the next use starts again")
  func stop() throws {
    let log = TestRecorder()
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addParallelState("p") { p in
        p.addState("a") { $0.addState("a1") }
        p.addState("b") { $0.addState("b1") }
      }
      for state in ["p", "a", "a1", "b", "b1"] {
        sm.onEntry(state) { _ in log.append("\(state)_enter") }
        sm.onExit(state) { _ in log.append("\(state)_exit") }
      }
    })
    try machine.startStateMachine()
    #expect(log.lines == ["p_enter", "a_enter", "a1_enter", "b_enter", "b1_enter"])
    log.clear()
    try machine.stopStateMachine()
    #expect(log.lines == ["b1_exit", "b_exit", "a1_exit", "a_exit", "p_exit"])
    log.clear()
    #expect(machine.state == "p/a/a1,p/b/b1")
    #expect(log.lines.count == 5)
    #expect(machine.configurationDescription == "p\n  a\n    a1\n  b\n    b1")
  }
}
