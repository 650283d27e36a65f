import Foundation
import StateMachines
import Testing

// An event fired from inside a callback of the same machine is queued: it runs once the current
// transition has completed (run to completion), and the inner call returns true.

/// Where a relay fires its inner event (`finish`) while `start` is running.
enum RelayHook: String, Sendable, CaseIterable {
  case before, exit, action, entry, after
}

/// `start` (idle → running) fires `finish` (running → done) from the callback named by ``hook``.
/// Every callback writes to ``log``.
@StateMachine
final class Relay {
  let hook: RelayHook
  var log: [String] = []
  var innerResult: Bool?

  init(hook: RelayHook) {
    self.hook = hook
  }

  /// Fires `finish` if `hook` is this relay's hook, logging around it.
  func fireInner(from hook: RelayHook) {
    guard hook == self.hook else { return }
    innerResult = finish()
    log.append("inner returned in \(state)")
  }

  static let stateMachine = StateMachineDefinition<Relay> { sm in
    sm.addState("idle")
    sm.addState("running")
    sm.addState("done")
    sm.when("start", transitionFrom: "idle", to: "running").action { relay in
      relay.log.append("action start in \(relay.state)")
      relay.fireInner(from: .action)
    }
    sm.when("finish", transitionFrom: "running", to: "done")
    sm.before("start") { relay in
      relay.log.append("before start in \(relay.state)")
      relay.fireInner(from: .before)
    }
    sm.onExit("idle") { relay in
      relay.log.append("exit idle")
      relay.fireInner(from: .exit)
    }
    sm.onEntry("running") { relay in
      relay.log.append("entry running")
      relay.fireInner(from: .entry)
    }
    sm.after("start") { relay in
      relay.log.append("after start in \(relay.state)")
      relay.fireInner(from: .after)
      relay.log.append("after start completes")
    }
    sm.before("finish") { relay in relay.log.append("before finish in \(relay.state)") }
    sm.after("finish") { relay in relay.log.append("after finish in \(relay.state)") }
  }
}

/// The log of a relay whose hook is `hook`: `start` runs to its end, then `finish` runs.
func expectedRelayLog(_ hook: RelayHook) -> [String] {
  var log: [String] = []
  func add(_ line: String, _ at: RelayHook? = nil) {
    log.append(line)
    if at == hook { log.append("inner returned in \(at == .entry || at == .after ? "running" : "idle")") }
  }
  add("before start in idle", .before)
  add("exit idle", .exit)
  add("action start in idle", .action)
  add("entry running", .entry)
  add("after start in running", .after)
  log.append("after start completes")
  log += ["before finish in running", "after finish in done"]
  return log
}

/// `ping` and `pong` fire each other from their after callbacks until ``remaining`` is 0.
@StateMachine
final class PingPong {
  var remaining: Int
  var log: [String] = []

  init(rallies: Int) {
    remaining = rallies
  }

  static let stateMachine = StateMachineDefinition<PingPong> { sm in
    sm.addState("left")
    sm.addState("right")
    sm.when("ping", transitionFrom: "left", to: "right")
    sm.when("pong", transitionFrom: "right", to: "left")
    sm.after("ping") { model in
      model.log.append("ping done")
      if model.remaining > 0 {
        model.remaining -= 1
        model.pong()
      }
    }
    sm.after("pong") { model in
      model.log.append("pong done")
      if model.remaining > 0 {
        model.remaining -= 1
        model.fire("ping")
      }
    }
  }
}

/// A `Sendable` relay (with a lock): `start` fires `finish` from its `after` callback, and a
/// queued event that turns out invalid is dropped.
@StateMachine
final class LockedRelay: @unchecked Sendable {
  var log: [String] = []
  var innerResults: [Bool] = []

  static let stateMachine = StateMachineDefinition<LockedRelay> { sm in
    sm.addState("idle")
    sm.addState("running")
    sm.addState("done")
    sm.when("start", transitionFrom: "idle", to: "running")
    sm.when("finish", transitionFrom: "running", to: "done")
    sm.before("start") { relay in relay.log.append("before start in \(relay.state)") }
    sm.after("start") { relay in
      relay.log.append("after start in \(relay.state)")
      relay.innerResults.append(relay.finish())
      // Asking works inside a callback too; it answers for the current state (`running`), as
      // the queued `finish` has not run yet.
      relay.innerResults.append(relay.canFinish)
      relay.innerResults.append(relay.isDone)
      relay.log.append("after start completes in \(relay.state)")
    }
    sm.before("finish") { relay in relay.log.append("before finish in \(relay.state)") }
    sm.after("finish") { relay in relay.log.append("after finish in \(relay.state)") }
  }
}

@Suite("Reentrancy", .timeLimit(.minutes(1)))
struct ReentrancyTests {
  @Test("an event fired from a callback runs after the current transition completes", arguments: RelayHook.allCases)
  func firedFromCallback(hook: RelayHook) {
    let relay = Relay(hook: hook)
    #expect(relay.start())
    #expect(relay.innerResult == true)
    #expect(relay.state == "done")
    #expect(relay.log == expectedRelayLog(hook))
  }

  @Test("the outer after callbacks complete before the inner transition's callbacks start")
  func outerCompletesFirst() throws {
    let relay = Relay(hook: .after)
    #expect(relay.start())
    let outerEnd = try #require(relay.log.firstIndex(of: "after start completes"))
    let innerStart = try #require(relay.log.firstIndex(of: "before finish in running"))
    #expect(outerEnd < innerStart)
  }

  @Test("an event fired from a before callback is queued even though it is invalid in the old state")
  func queuedEventIsSelectedLater() {
    // `finish` has no transition from `idle`, the state while `before start` runs; it is taken
    // from `running`, once `start` is done.
    let relay = Relay(hook: .before)
    #expect(relay.start())
    #expect(relay.state == "done")
    #expect(relay.log.contains("after finish in done"))
  }

  @Test("fireOrThrow from inside a callback queues the event and does not throw")
  func fireOrThrowFromCallback() {
    let machine = ThrowingRelay()
    #expect(machine.go())
    #expect(machine.innerError == nil)
    #expect(machine.state == "c")
  }

  @Test("a queued event that is invalid once it runs is dropped; the outer call still succeeds")
  func queuedInvalidEventIsDropped() {
    let machine = ThrowingRelay()
    machine.fireInvalid = true
    #expect(machine.go())
    #expect(machine.state == "c")  // `go` is not valid from `b`: it was dropped, `next` was taken
    #expect(machine.goCount == 1)
  }

  @Test("callbacks firing each other run one after the other, never nested")
  func chainOfQueuedEvents() {
    let game = PingPong(rallies: 4)
    #expect(game.ping())
    #expect(game.remaining == 0)
    #expect(game.log == ["ping done", "pong done", "ping done", "pong done", "ping done"])
    #expect(game.state == "right")
  }

  @Test("a Sendable (locked) object: no deadlock, inner call returns true, outer completes first")
  func lockedObject() {
    let relay = LockedRelay()
    #expect(relay.start())
    #expect(relay.innerResults == [true, true, false])
    #expect(relay.state == "done")
    #expect(
      relay.log == [
        "before start in idle", "after start in running", "after start completes in running",
        "before finish in running", "after finish in done",
      ])
  }

  @Test("Sendable relays started from concurrent tasks each run their queued event")
  func lockedObjectsFromManyTasks() async {
    let relays = (0..<16).map { _ in LockedRelay() }
    await withTaskGroup(of: Bool.self) { group in
      for relay in relays {
        group.addTask { relay.start() }
        // One read: three separate `is…` reads could each see a different state while the
        // other task moves the relay on, and all three could then be false.
        group.addTask { ["idle", "running", "done"].contains(relay.state) }
      }
      for await result in group { #expect(result) }
    }
    for relay in relays {
      #expect(relay.state == "done")
      #expect(relay.innerResults == [true, true, false])
    }
  }
}

/// `go` (a → b) fires `next` (b → c) with `fireOrThrow` from its after callback; with
/// ``fireInvalid`` it first fires `go` again, which is invalid from `b`.
@StateMachine
final class ThrowingRelay {
  var innerError: StateMachineErrorCase?
  var fireInvalid = false
  var goCount = 0

  static let stateMachine = StateMachineDefinition<ThrowingRelay> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.addState("c")
    sm.when("go", transitionFrom: "a", to: "b")
    sm.when("next", transitionFrom: "b", to: "c")
    sm.after("go") { machine in
      machine.goCount += 1
      if machine.fireInvalid { machine.go() }
      machine.innerError = stateMachineError { try machine.fireOrThrow("next") }
    }
  }
}
