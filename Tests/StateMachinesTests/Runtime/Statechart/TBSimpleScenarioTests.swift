import Foundation
import StateMachines
import Testing

/// TBStateMachine's flat scenarios F1–F7 (Hierarchy §10, `TBSMStateMachineSimpleTests.m`) and
/// the path subscriptions and notifications of §3.
@Suite("TBStateMachine flat scenarios (§10) and path notifications (§3)", .serialized)
struct TBSimpleScenarioTests {
  let log = TestRecorder()

  @Test("F1: an event switches states")
  func f1() throws {
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("a"); sm.addState("b")
      sm.when("E", transitionFrom: "a", to: "b")
    })
    #expect(machine.fire("E"))
    #expect(machine.state == "b")
  }

  /// a -E-> b guarded, with an action; a's entry runs at start.
  func guarded(_ passes: Bool) throws -> DynamicStateMachine {
    let machine = try DynamicStateMachine(validating: { [log] sm in
      sm.addState("a"); sm.addState("b")
      sm.onEntry("a") { _ in log.append("enterA") }
      sm.onExit("a") { _ in log.append("exitA") }
      sm.onEntry("b") { _ in log.append("enterB") }
      sm.when("E", transitionFrom: "a", to: "b")
        .guarded { _ in log.append("guardA"); return passes }
        .action { _ in log.append("actionA") }
    })
    try machine.startStateMachine()
    return machine
  }

  @Test("F2: guarded external transition with an action, in order")
  func f2() throws {
    let machine = try guarded(true)
    #expect(machine.fire("E"))
    #expect(log.lines.joined(separator: "-") == "enterA-guardA-exitA-actionA-enterB")
  }

  @Test("F3: a failing guard runs no action and the state stays")
  func f3() throws {
    let machine = try guarded(false)
    #expect(!machine.fire("E"))
    #expect(log.lines == ["enterA", "guardA"])
    #expect(machine.state == "a")
  }

  @Test("F4: of two transitions on E, the first guard fails and the second is taken")
  func f4() throws {
    let machine = try DynamicStateMachine(validating: { sm in
      sm.addState("a"); sm.addState("b"); sm.addState("c")
      sm.when("E", transitionFrom: "a", to: "b").guarded { _ in false }
      sm.when("E", transitionFrom: "a", to: "c").guarded { _ in true }
    })
    #expect(machine.fire("E"))
    #expect(machine.state == "c")
  }

  @Test("F5: the payload reaches guard, action, exit and entry")
  func f5() throws {
    let machine = try DynamicStateMachine(validating: { [log] sm in
      sm.addState("a"); sm.addState("b")
      sm.onExit("a") { _, t in log.append("exit \(t.payload(as: Int.self) ?? -1)") }
      sm.onEntry("b") { _, t in log.append("entry \(t.payload(as: Int.self) ?? -1)") }
      sm.when("E", transitionFrom: "a", to: "b")
        .guarded { _, t in log.append("guard \(t.payload(as: Int.self) ?? -1)"); return true }
        .action { _, t in log.append("action \(t.payload(as: Int.self) ?? -1)") }
    })
    #expect(machine.fire("E", payload: 7))
    #expect(log.lines == ["guard 7", "exit 7", "action 7", "entry 7"])
  }

  @Test("F6: an external self-transition exits and re-enters")
  func f6() throws {
    let machine = try DynamicStateMachine(validating: { [log] sm in
      sm.addState("a")
      sm.onEntry("a") { _ in log.append("enter") }
      sm.onExit("a") { _ in log.append("exit") }
      sm.when("E", transitionFrom: "a", to: "a")
    })
    try machine.startStateMachine()
    #expect(machine.fire("E"))
    #expect(log.lines == ["enter", "exit", "enter"])
  }

  @Test("F7: DidEnter at start, DidExit at stop, an internal transition posts one named after it", arguments: [false, true])
  func f7(nested: Bool) throws {
    let center = NotificationCenter()
    let machine = try DynamicStateMachine(validating: { sm in
      sm.notificationCenter = center
      sm.postsStateNotifications = true
      if nested {
        sm.addState("top") { $0.addState("a") }
        sm.when("tick", transitionFrom: "top/a", to: "top/a", kind: .internal)
      } else {
        sm.addState("a")
        sm.when("tick", transitionFrom: "a", to: "a", kind: .internal)
      }
    })
    let names: [Notification.Name] = [
      .stateMachineDidEnterState, .stateMachineDidExitState, .stateMachineDidPerformInternalTransition,
    ]
    let tokens = names.map { name in
      center.addObserver(forName: name, object: machine, queue: nil) { [log] notification in
        let path = notification.userInfo?["path"] as? String ?? "?"
        let event = notification.userInfo?["event"] as? String ?? "?"
        log.append("\(name.rawValue) \(path) \(event)")
      }
    }
    defer { tokens.forEach(center.removeObserver) }
    try machine.startStateMachine()
    #expect(machine.fire("tick", payload: 1))
    try machine.stopStateMachine()
    let leaf = nested ? "top/a" : "a"
    var expected = nested ? ["StateMachineDidEnterState top "] : []
    expected += [
      "StateMachineDidEnterState \(leaf) ", "StateMachineDidPerformInternalTransition \(leaf) tick",
      "StateMachineDidExitState \(leaf) ",
    ]
    if nested { expected.append("StateMachineDidExitState top ") }
    #expect(log.lines == expected)
  }

  @Test("path subscriptions: entry, exit and internal transitions at a region path, with the payload")
  func subscriptions() throws {
    let machine = try TBScenarioFixture.machine(TestRecorder())
    var tokens = [
      try machine.subscribeToEntry(at: "c/c2@1/c222") { [log] payload in log.append("enter c222 \(payload ?? "nil")") },
      try machine.subscribeToExit(at: "c222") { [log] _ in log.append("exit c222") },
      try machine.subscribeToInternalTransition("b3xx_internal", at: "b/b3@0/b311") { [log] _ in log.append("b311 internal") },
    ]
    #expect(machine.fire("a_fork", payload: "p"))
    #expect(machine.fire("c212_join"))
    #expect(machine.fire("c222_join"))
    #expect(machine.fire("b_b3"))
    #expect(machine.fire("b3xx_internal"))
    #expect(log.lines == ["enter c222 p", "exit c222", "b311 internal"])
    tokens[0].cancel()
    tokens.removeAll()
    #expect(throws: StateMachineError.self) { _ = try machine.subscribeToEntry(at: "c/c2/c222") { _ in } }
  }
}
