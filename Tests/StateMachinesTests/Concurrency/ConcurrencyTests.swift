import Dispatch
import Foundation
import StateMachines
import Testing

// A `Sendable` machine object driven from many threads at once: every accepted event is one
// whole transition (no lost, doubled or torn transition), and reads see a valid state.
// Run with `swift test --sanitize=thread` too.

private let workers = 8
private let eventsPerWorker = 1_000

/// `go` (off → on) and `back` (on → off); counts what its callbacks and observer see.
@StateMachine
final class ToggleSwitch: @unchecked Sendable {
  let counter = TestRecorder()

  static let stateMachine = StateMachineDefinition<ToggleSwitch> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("go", transitionFrom: "off", to: "on")
    sm.when("back", transitionFrom: "on", to: "off")
    sm.before("go") { toggle, transition in
      toggle.counter.increment("began")
      if transition.from != "off" || !toggle.isOff { toggle.counter.increment("torn") }
    }
    sm.before("back") { toggle, _ in toggle.counter.increment("began") }
    sm.after("go") { toggle, transition in
      toggle.counter.increment("after go")
      if transition.to != "on" || !toggle.isOn { toggle.counter.increment("torn") }
    }
    sm.after("back") { toggle, transition in
      toggle.counter.increment("after back")
      if transition.to != "off" || !toggle.isOff { toggle.counter.increment("torn") }
    }
    sm.didTransition { toggle, _ in toggle.counter.increment("observed") }
  }
}

/// The same toggle without callbacks (the fast path), `Sendable` with checking: only `let`s.
@StateMachine
final class CheckedToggle: Sendable {
  let name: String

  init(name: String) {
    self.name = name
  }

  static let stateMachine = StateMachineDefinition<CheckedToggle> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("go", transitionFrom: "off", to: "on")
    sm.when("back", transitionFrom: "on", to: "off")
  }
}

/// `next` goes round a → b → c → a, so every `next` is accepted and the final state follows
/// from the number of events. Its after callback checks that transitions chain up.
@StateMachine
final class Ring: @unchecked Sendable {
  // Written only by callbacks, which run under the machine's lock.
  private(set) var steps = 0
  private(set) var brokenLinks = 0
  private var lastState = "a"

  static let stateMachine = StateMachineDefinition<Ring> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.addState("c")
    sm.when("next", transitionFrom: "a", to: "b")
    sm.when("next", transitionFrom: "b", to: "c")
    sm.when("next", transitionFrom: "c", to: "a")
    sm.after("next") { ring, transition in
      if transition.from != ring.lastState { ring.brokenLinks += 1 }
      ring.lastState = transition.to
      ring.steps += 1
    }
  }
}

/// `next` round a → b → c → a without callbacks (the fast path).
@StateMachine
final class PlainRing: @unchecked Sendable {
  static let stateMachine = StateMachineDefinition<PlainRing> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.addState("c")
    sm.when("next", transitionFrom: ["a"], to: "b")
    sm.when("next", transitionFrom: ["b"], to: "c")
    sm.when("next", transitionFrom: ["c"], to: "a")
  }
}

/// The state a ring reaches after `steps` events.
private func ringState(after steps: Int) -> String { ["a", "b", "c"][steps % 3] }

@Suite("Concurrency", .timeLimit(.minutes(1)))
struct ConcurrencyTests {
  @Test("toggle from many threads: every accepted event is one whole transition")
  func toggleFromManyThreads() {
    let toggle = ToggleSwitch()
    let accepted = TestRecorder()
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var go = 0
      var back = 0
      for index in 0..<eventsPerWorker {
        if (index + worker) % 2 == 0 {
          if toggle.go() { go += 1 }
        } else {
          if toggle.back() { back += 1 }
        }
      }
      accepted.increment("go", by: go)
      accepted.increment("back", by: back)
    }
    let go = accepted["go"]
    let back = accepted["back"]
    #expect(go > 0)
    #expect(go == toggle.counter["after go"])
    #expect(back == toggle.counter["after back"])
    #expect(go + back == toggle.counter["observed"])
    #expect(toggle.counter["torn"] == 0)
    #expect(go - back == 0 || go - back == 1)
    #expect(toggle.state == (go - back == 1 ? "on" : "off"))
  }

  @Test("a checked Sendable toggle driven from a task group, by generated methods and by name")
  func checkedToggleFromTaskGroup() async {
    let toggle = CheckedToggle(name: "group")
    let results = await withTaskGroup(of: (go: Int, back: Int).self) { group in
      for worker in 0..<workers {
        group.addTask {
          var go = 0
          var back = 0
          for index in 0..<eventsPerWorker {
            switch (index + worker) % 4 {
            case 0: if toggle.go() { go += 1 }
            case 1: if toggle.back() { back += 1 }
            case 2: if toggle.fire("go") { go += 1 }
            default: if (try? toggle.fireOrThrow("back")) != nil { back += 1 }
            }
          }
          return (go, back)
        }
      }
      var total = (go: 0, back: 0)
      for await result in group {
        total.go += result.go
        total.back += result.back
      }
      return total
    }
    #expect(results.go > 0)
    #expect(results.go - results.back == 0 || results.go - results.back == 1)
    #expect(toggle.state == (results.go - results.back == 1 ? "on" : "off"))
    #expect(toggle.name == "group")
  }

  @Test("a ring from many threads: no event lost, transitions chain up")
  func ringFromManyThreads() {
    let ring = Ring()
    let rejected = TestRecorder()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      for _ in 0..<eventsPerWorker where !ring.next() {
        rejected.increment("next")
      }
    }
    let total = workers * eventsPerWorker
    #expect(rejected["next"] == 0)
    #expect(ring.steps == total)
    #expect(ring.brokenLinks == 0)
    #expect(ring.state == ringState(after: total))
  }

  @Test("a ring without callbacks (the fast path) from many threads loses no event")
  func plainRingFromManyThreads() async {
    let ring = PlainRing()
    let accepted = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<workers {
        group.addTask {
          var accepted = 0
          for _ in 0..<eventsPerWorker where ring.next() { accepted += 1 }
          return accepted
        }
      }
      return await group.reduce(0, +)
    }
    let total = workers * eventsPerWorker
    #expect(accepted == total)
    #expect(ring.state == ringState(after: total))
  }

  @Test("reads of state, is<State>, can<Event> and availableEvents while other threads fire")
  func readsWhileFiring() {
    let toggle = ToggleSwitch()
    let invalid = TestRecorder()
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in 0..<eventsPerWorker {
        if worker % 2 == 0 {
          // Writers.
          if index % 2 == 0 { toggle.go() } else { toggle.back() }
          continue
        }
        // Readers. `began` counts before callbacks (before the state changes), `observed` the
        // observer calls (after it): when both are equal around the reads, exactly that many
        // transitions from `off` had happened at every read, so each read has one right answer.
        let completedBefore = toggle.counter["observed"]
        let state = toggle.state
        let available = toggle.availableEvents
        let isOn = toggle.isOn
        let canGo = toggle.canGo
        let isOff = toggle.isInState("off")
        let begunAfter = toggle.counter["began"]
        // Every read alone is one consistent snapshot.
        if state != "on" && state != "off" { invalid.increment("state") }
        if available != ["go"] && available != ["back"] { invalid.increment("availableEvents") }
        guard completedBefore == begunAfter else { continue }
        let on = completedBefore % 2 == 1
        if state != (on ? "on" : "off") { invalid.increment("state") }
        if available != (on ? ["back"] : ["go"]) { invalid.increment("availableEvents") }
        if isOn != on { invalid.increment("isOn") }
        if canGo == on { invalid.increment("canGo") }
        if isOff == on { invalid.increment("isInState") }
      }
    }
    #expect(invalid["state"] == 0)
    #expect(invalid["availableEvents"] == 0)
    #expect(invalid["isOn"] == 0)
    #expect(invalid["canGo"] == 0)
    #expect(invalid["isInState"] == 0)
    let state = toggle.state
    #expect(state == "on" || state == "off")
    #expect(toggle.isOn == (state == "on"))
    #expect(toggle.canGo == (state == "off"))
    #expect(toggle.isInState("off") == (state == "off"))
    #expect(toggle.counter["torn"] == 0)
    // Every transition began and completed once, and the state follows from their number.
    #expect(toggle.counter["began"] == toggle.counter["observed"])
    #expect(state == (toggle.counter["observed"] % 2 == 1 ? "on" : "off"))
  }

  @Test("many objects of one class, each driven from its own task, share the definition safely")
  func manyObjects() async {
    let rings = (0..<workers).map { _ in Ring() }
    await withTaskGroup(of: Void.self) { group in
      for ring in rings {
        group.addTask {
          for _ in 0..<eventsPerWorker { ring.next() }
        }
      }
    }
    for ring in rings {
      #expect(ring.steps == eventsPerWorker)
      #expect(ring.state == ringState(after: eventsPerWorker))
    }
  }
}
