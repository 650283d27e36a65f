import StateMachines
import Testing

// Guards (Semantics §Definition): of the transitions of one event from the current state, the first
// whose guard passes is taken, in declaration order; if every guard fails the event is rejected
// and nothing runs. `canX` evaluates the guards and runs nothing else.

/// `activate` has two guarded transitions from `pending` and an unguarded fallback; `upgrade` has
/// a guard that reads the payload. Guards and callbacks write to ``log``.
@StateMachine
final class GuardAccount {
  var paid = false
  var trial = false
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<GuardAccount> { sm in
    sm.initialState = "pending"
    sm.addState("pending")
    sm.addState("active")
    sm.addState("trialing")
    sm.addState("premium")
    sm.addState("review")
    sm.when("activate", transitionFrom: "pending", to: "active").guarded { account in
      account.log.append("guard paid")
      return account.paid
    }
    sm.when("activate", transitionFrom: "pending", to: "trialing").guarded { account in
      account.log.append("guard trial")
      return account.trial
    }
    sm.when("submit", transitionFrom: "pending", to: "active").guarded { $0.paid }
    sm.when("submit", transitionFrom: "pending", to: "review")
    sm.when("upgrade", transitionFrom: "active", to: "premium").guarded { account, transition in
      account.log.append("guard \(transition.event) \(transition.from)->\(transition.to)")
      return (transition.payload(as: Int.self) ?? 0) >= 100
    }
    sm.before("activate") { $0.log.append("before activate") }
    sm.after("activate") { $0.log.append("after activate") }
    sm.before("upgrade") { $0.log.append("before upgrade") }
  }
}

/// Names from arrays, as a definition loaded at run time has them.
private let guardGateStates = ["locked", "unlocked", "open"]
private let guardGateEvents = ["unlock", "push"]

/// A gate built at run time: `unlock` leads to `unlocked` with the `key` flag, else to `open`
/// with the `badge` flag; `push` needs the payload `"hard"`.
private func makeGuardGate(_ probe: FlatTestProbe) throws(DefinitionError) -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for state in guardGateStates { sm.addState(state) }
    sm.when(guardGateEvents[0], transitionFrom: guardGateStates[0], to: guardGateStates[1])
      .guarded { _ in probe.flags.contains("key") }
    sm.when(guardGateEvents[0], transitionFrom: guardGateStates[0], to: guardGateStates[2])
      .guarded { _ in probe.flags.contains("badge") }
    sm.when(guardGateEvents[1], transitionFrom: guardGateStates[1], to: guardGateStates[2])
      .guarded { _, transition in transition.payload(as: String.self) == "hard" }
  })
}

@Suite("Guards")
struct GuardTests {
  @Test("a passing guard takes the transition")
  func guardPasses() {
    let account = GuardAccount()
    account.paid = true
    #expect(account.activate())
    #expect(account.state == "active")
    #expect(account.isActive)
    #expect(account.log == ["guard paid", "before activate", "after activate"])
  }

  @Test("the first transition whose guard passes wins, in declaration order")
  func firstPassingGuardWins() {
    let both = GuardAccount()
    both.paid = true
    both.trial = true
    #expect(both.activate())
    #expect(both.state == "active")
    // The second guard is never asked once the first passed.
    #expect(both.log == ["guard paid", "before activate", "after activate"])

    let trialOnly = GuardAccount()
    trialOnly.trial = true
    #expect(trialOnly.activate())
    #expect(trialOnly.state == "trialing")
    #expect(trialOnly.log == ["guard paid", "guard trial", "before activate", "after activate"])
  }

  @Test("an unguarded transition after a failing guard is the fallback")
  func unguardedFallback() {
    let unpaid = GuardAccount()
    #expect(unpaid.submit())
    #expect(unpaid.state == "review")

    let paid = GuardAccount()
    paid.paid = true
    #expect(paid.submit())
    #expect(paid.state == "active")
  }

  @Test("when every guard fails the event is rejected and no callback runs")
  func allGuardsFail() {
    let account = GuardAccount()
    #expect(!account.activate())
    #expect(account.state == "pending")
    #expect(account.log == ["guard paid", "guard trial"])
    #expect(!account.fire("activate"))
    #expect(account.state == "pending")
  }

  @Test("fireOrThrow reports guardsFailed when every guard fails")
  func allGuardsFailThrows() {
    let account = GuardAccount()
    let error = stateMachineError { try account.fireOrThrow("activate") }
    #expect(error == .guardsFailed(event: "activate", state: "pending"))
    #expect(account.state == "pending")
    #expect(!account.log.contains("before activate"))
  }

  @Test("canX evaluates the guards and runs no callback")
  func canEvaluatesGuards() {
    let account = GuardAccount()
    #expect(!account.canActivate)
    #expect(!account.can("activate"))
    #expect(!account.availableEvents.contains("activate"))
    account.trial = true
    #expect(account.canActivate)
    #expect(account.can("activate"))
    #expect(account.availableEvents.contains("activate"))
    // Only guards ran; the state did not change.
    #expect(account.log.allSatisfy { $0.hasPrefix("guard ") })
    #expect(account.log.contains("guard trial"))
    #expect(account.state == "pending")
  }

  @Test("a guard taking the Transition sees the payload and the names")
  func guardSeesPayload() {
    let account = GuardAccount()
    account.paid = true
    #expect(account.activate())
    account.log = []
    #expect(!account.upgrade(with: 50))
    #expect(account.state == "active")
    #expect(!account.upgrade())
    #expect(!account.upgrade(with: "a lot"))
    #expect(account.state == "active")
    #expect(account.upgrade(with: 150))
    #expect(account.state == "premium")
    #expect(
      account.log == [
        "guard upgrade active->premium", "guard upgrade active->premium",
        "guard upgrade active->premium", "guard upgrade active->premium", "before upgrade",
      ])
  }

  @Test("fire with a payload reaches the guard")
  func guardSeesPayloadByName() {
    let account = GuardAccount()
    account.paid = true
    #expect(account.fire("activate"))
    let error = stateMachineError { try account.fireOrThrow("upgrade", payload: 99) }
    #expect(error == .guardsFailed(event: "upgrade", state: "active"))
    #expect(account.fire("upgrade", payload: 100))
    #expect(account.state == "premium")
  }

  @Test("guards of a definition built at run time, fired by name")
  func dynamicGuards() throws {
    let keylessProbe = FlatTestProbe()
    let keyless = try makeGuardGate(keylessProbe)
    #expect(keyless.state == "locked")
    #expect(!keyless.can("unlock"))
    #expect(!keyless.fire("unlock"))
    #expect(stateMachineError { try keyless.fireOrThrow("unlock") } == .guardsFailed(event: "unlock", state: "locked"))
    keylessProbe.flags.insert("badge")
    #expect(keyless.can("unlock"))
    #expect(keyless.fire("unlock"))
    #expect(keyless.isInState("open"))

    let keyedProbe = FlatTestProbe()
    keyedProbe.flags = ["key", "badge"]
    let keyed = try makeGuardGate(keyedProbe)
    #expect(keyed.fire("unlock"))
    #expect(keyed.state == "unlocked")
    #expect(!keyed.fire("push", payload: "soft"))
    #expect(keyed.state == "unlocked")
    #expect(keyed.fire("push", payload: "hard"))
    #expect(keyed.state == "open")
  }
}
