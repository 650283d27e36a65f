import Testing

import StateMachines

struct LightTierFailure: Error {}

/// Events whose only code is plain `before`/`after` callbacks take the runtime's light tier (no
/// `Transition` is built); these tests pin that it keeps the semantics of the full step.
@StateMachine
final class LightTierPump {
  var log: [String] = []
  var failBefore = false
  var failAfter = false

  static let stateMachine = StateMachineDefinition<LightTierPump> { sm in
    sm.addState("idle")
    sm.addState("pumping")
    sm.addState("flushed")
    sm.when("start", transitionFrom: "idle", to: "pumping")
    sm.when("stop", transitionFrom: "pumping", to: "idle")
    sm.when("flush", transitionFrom: "idle", to: "flushed")
    sm.before("start") { pump in
      pump.log.append("before start in \(pump.state)")
      if pump.failBefore { throw LightTierFailure() }
    }
    sm.before("start") { $0.log.append("second before start") }
    sm.after("start") { pump in
      pump.log.append("after start in \(pump.state)")
      if pump.failAfter { throw LightTierFailure() }
    }
    sm.after("start") { $0.log.append("second after start") }
    sm.after("stop") { pump in
      pump.log.append("after stop")
      // Fired from inside a callback: queued, runs once this step is done.
      pump.log.append("flush queued: \(pump.flush())")
    }
    sm.after("flush") { $0.log.append("after flush in \($0.state)") }
  }
}

/// A transition whose only code is a plain guard (and plain callbacks) also takes the light tier.
@StateMachine
final class LightTierGate {
  var open = false
  var failGuard = false
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<LightTierGate> { sm in
    sm.addState("closed")
    sm.addState("passed")
    sm.addState("alarmed")
    sm.when("pass", transitionFrom: "closed", to: "passed").guarded { gate in
      gate.log.append("guard in \(gate.state)")
      // An event fired by a guard is queued; if the guard rejects, it is dropped with the step.
      gate.log.append("alarm queued: \(gate.alarm())")
      if gate.failGuard { throw LightTierFailure() }
      return gate.open
    }
    sm.when("alarm", transitionFrom: "closed", to: "alarmed")
    sm.after("pass") { $0.log.append("after pass in \($0.state)") }
  }
}

/// A transition whose only code is one `after` callback: the light tier's shortest path.
@StateMachine
final class LightTierBell {
  var rings = 0
  var failRing = false

  static let stateMachine = StateMachineDefinition<LightTierBell> { sm in
    sm.addState("silent")
    sm.addState("ringing")
    sm.when("ring", transitionFrom: "silent", to: "ringing")
    sm.when("hush", transitionFrom: "ringing", to: "silent")
    sm.after("ring") { bell in
      bell.rings += 1
      // Queued before the throw: the transition stands, so the queued event runs.
      if bell.failRing {
        bell.hush()
        throw LightTierFailure()
      }
    }
  }
}

@Suite struct LightTierTests {
  @Test func aSoleAfterCallbackRunsOnceInTheNewState() {
    let bell = LightTierBell()
    #expect(bell.ring())
    #expect(bell.isRinging)
    #expect(bell.rings == 1)
    #expect(!bell.ring())
    #expect(bell.rings == 1)
  }

  @Test func aThrowingSoleAfterCallbackKeepsTheNewStateAndWhatItQueued() throws {
    let bell = LightTierBell()
    bell.failRing = true
    #expect(bell.ring())
    #expect(bell.rings == 1)
    #expect(bell.isSilent)  // the queued `hush` ran after the step
    do {
      try bell.fireOrThrow("ring")
      Issue.record("expected an error")
    } catch {
      guard case .callbackFailed(_, let happened, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(happened)
    }
    #expect(bell.rings == 2)
    #expect(bell.isSilent)
  }

  @Test func aPassingPlainGuardLetsTheTransitionHappen() {
    let gate = LightTierGate()
    gate.open = true
    #expect(gate.canPass)
    gate.log.removeAll()
    #expect(gate.pass())
    #expect(gate.isPassed)
    // The alarm queued by the guard ran after the step, and was rejected from "passed".
    #expect(gate.log == ["guard in closed", "alarm queued: true", "after pass in passed"])
  }

  @Test func aFailingOrThrowingPlainGuardChangesNothingAndDropsWhatItFired() {
    let gate = LightTierGate()
    #expect(!gate.canPass)
    #expect(!gate.pass())
    #expect(gate.isClosed)
    gate.failGuard = true
    gate.open = true
    #expect(!gate.pass())
    #expect(gate.isClosed)
    #expect(!gate.log.contains { $0.hasPrefix("after") })
  }

  @Test func callbacksRunInOrderAroundTheStateChange() {
    let pump = LightTierPump()
    #expect(pump.start())
    #expect(pump.isPumping)
    #expect(pump.log == [
      "before start in idle", "second before start", "after start in pumping", "second after start",
    ])
  }

  @Test func aThrowingBeforeCallbackChangesNothingAndStopsTheRest() {
    let pump = LightTierPump()
    pump.failBefore = true
    #expect(!pump.start())
    #expect(pump.isIdle)
    #expect(pump.log == ["before start in idle"])
  }

  @Test func aThrowingAfterCallbackKeepsTheNewStateAndSkipsTheRest() {
    let pump = LightTierPump()
    pump.failAfter = true
    #expect(pump.start())
    #expect(pump.isPumping)
    #expect(pump.log == ["before start in idle", "second before start", "after start in pumping"])
  }

  @Test func anEventFiredFromALightCallbackIsQueuedAndRunsAfterTheStep() {
    let pump = LightTierPump()
    pump.start()
    pump.log.removeAll()
    #expect(pump.stop())
    #expect(pump.isFlushed)
    #expect(pump.log == ["after stop", "flush queued: true", "after flush in flushed"])
  }

  @Test func theThrowingVariantStillReportsTheErrorOfAnEventWithPlainCallbacks() {
    let pump = LightTierPump()
    pump.failBefore = true
    do {
      try pump.fireOrThrow("start")
      Issue.record("expected an error")
    } catch {
      guard case .callbackFailed(let event, let happened, let underlying) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(event == "start")
      #expect(!happened)
      #expect(underlying is LightTierFailure)
    }
    #expect(pump.isIdle)
  }
}
