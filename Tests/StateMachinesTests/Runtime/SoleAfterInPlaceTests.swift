import Dispatch
import Testing

@testable import StateMachines

// A light transition whose only code is one `after` callback runs inside the generated method
// (`fireSoleAfter`), not in `fireSlot`: on a class without a lock and, under the lock, on a
// `Sendable` one. These tests pin that it keeps the light tier's semantics on both, and that the
// one compare that picks such a slot (`CompiledMachine.soleAfterSlotLimit`) picks exactly those.

/// `ring` (silent → ringing) runs one `after` callback, which reads the state and fires `hush`
/// (ringing → silent), another sole `after` transition. `knock` has a `before` and an `after`
/// callback: a light slot of the other kind.
@StateMachine
final class SendableDoorbell: @unchecked Sendable {
  let recorder = TestRecorder()
  var failRing = false

  static let stateMachine = StateMachineDefinition<SendableDoorbell> { sm in
    sm.addState("silent")
    sm.addState("ringing")
    sm.when("ring", transitionFrom: "silent", to: "ringing")
    sm.when("hush", transitionFrom: "ringing", to: "silent")
    sm.when("knock", transitionFrom: "silent", to: "silent")
    sm.after("ring") { bell in
      bell.recorder.append("after ring in \(bell.state)")
      bell.recorder.append("hush fired: \(bell.hush())")
      if bell.failRing { throw LightTierFailure() }
    }
    sm.after("hush") { bell in bell.recorder.append("after hush in \(bell.state)") }
    sm.before("knock") { $0.recorder.append("before knock") }
    sm.after("knock") { $0.recorder.append("after knock") }
  }
}

/// The same doorbell on a class without a lock.
@StateMachine
final class PlainDoorbell {
  var lines: [String] = []

  static let stateMachine = StateMachineDefinition<PlainDoorbell> { sm in
    sm.addState("silent")
    sm.addState("ringing")
    sm.when("ring", transitionFrom: "silent", to: "ringing")
    sm.when("hush", transitionFrom: "ringing", to: "silent")
    sm.after("ring") { bell in
      bell.lines.append("after ring in \(bell.state)")
      bell.lines.append("hush fired: \(bell.hush())")
    }
    sm.after("hush") { bell in bell.lines.append("after hush in \(bell.state)") }
  }
}

@Suite struct SoleAfterInPlaceTests {
  @Test(.timeLimit(.minutes(1)))
  func onASendableClassTheCallbackRunsOutsideTheLockAndWhatItFiresIsQueued() {
    let bell = SendableDoorbell()
    // On another thread, waited for with a deadline: if the callback ran under the lock, reading
    // the state and firing `hush` would wait for that lock; if its thread did not own the
    // machine, `hush` would wait for the busy mark it holds itself. Either way, for ever.
    #expect(ringOnAnotherThread(bell) == true)
    #expect(bell.isSilent)
    #expect(
      bell.recorder.lines == [
        "after ring in ringing", "hush fired: true", "after hush in silent",
      ])
    // Idle again: another thread takes the machine at once (the busy mark was released).
    #expect(ringOnAnotherThread(bell) == true)
    #expect(bell.isSilent)
    #expect(bell.recorder.lines.count == 6)
  }

  /// `bell.ring()` on another thread; `nil` if it has not returned after 20 seconds.
  private func ringOnAnotherThread(_ bell: SendableDoorbell) -> Bool? {
    let done = DispatchSemaphore(value: 0)
    let result = TestRecorder()
    DispatchQueue.global().async {
      result.append("\(bell.ring())")
      done.signal()
    }
    guard done.wait(timeout: .now() + 20) == .success else { return nil }
    return result.lines == ["true"]
  }

  @Test(.timeLimit(.minutes(1)))
  func onASendableClassAThrowingCallbackKeepsTheNewStateAndWhatItQueued() {
    let bell = SendableDoorbell()
    bell.failRing = true
    #expect(ringOnAnotherThread(bell) == true)
    #expect(bell.isSilent)
    #expect(bell.recorder.lines.last == "after hush in silent")
    bell.failRing = false
    #expect(ringOnAnotherThread(bell) == true)
    #expect(bell.recorder.lines.count == 6)
  }

  @Test func onAPlainClassWhatTheCallbackFiresRunsAfterIt() {
    let bell = PlainDoorbell()
    #expect(bell.ring())
    #expect(bell.isSilent)
    #expect(bell.lines == ["after ring in ringing", "hush fired: true", "after hush in silent"])
    #expect(!bell.hush())
    #expect(bell.ring())
    #expect(bell.lines.count == 6)
  }

  @Test func theSlotLimitPicksExactlyTheTransitionsWhoseOnlyCodeIsOneAfterCallback() {
    // ring and hush run one `after` callback; knock runs a `before` and an `after` callback.
    #expect(lightSlots(of: SendableDoorbell.stateMachine.compiled) == [false, true, true])
    // stop and flush run one `after` callback; start runs four callbacks.
    #expect(lightSlots(of: LightTierPump.stateMachine.compiled) == [false, true, true])
    // Without such a transition, the limit is below every slot.
    let beforeOnly = StateMachineDefinition<PlainDoorbell> { sm in
      sm.addState("silent")
      sm.addState("ringing")
      sm.when("ring", transitionFrom: "silent", to: "ringing")
      sm.before("ring") { $0.lines.append("before ring") }
    }
    #expect(lightSlots(of: beforeOnly.compiled) == [false])
    #expect(beforeOnly.compiled.soleAfterSlotLimit == .min)
  }

  @Test func anEventIDCarriesItsOnlySourcesTransitionExactlyWhenItsOnlyCodeIsOneAfterCallback() {
    // ring and hush have one source each and run one `after` callback; knock runs a `before`
    // callback too.
    #expect(carriedTransitions(SendableDoorbell.stateMachine.compiled) == ["ring": true, "hush": true, "knock": false])
    // An event with two source states reads the table, whatever its transitions run.
    let twoSources = StateMachineDefinition<PlainDoorbell> { sm in
      sm.addState("silent")
      sm.addState("ringing")
      sm.when("ring", transitionFrom: ["silent", "ringing"], to: "ringing")
      sm.after("ring") { $0.lines.append("rang") }
    }
    #expect(carriedTransitions(twoSources.compiled) == ["ring": false])
    // With a log, every slot takes the full step: no event has a single source there.
    let logged = StateMachineDefinition<PlainDoorbell> { sm in
      sm.log = StateMachineLog { _ in }
      sm.addState("silent")
      sm.addState("ringing")
      sm.when("ring", transitionFrom: "silent", to: "ringing")
      sm.after("ring") { $0.lines.append("rang") }
    }
    #expect(carriedTransitions(logged.compiled) == ["ring": false])
    // The ID of an unknown name carries nothing.
    #expect(SendableDoorbell.stateMachine.compiled.eventIDs.last?.soleAfterTransition == 0)
  }

  /// For each event of `compiled`, whether its ID carries a transition, after checking that a
  /// carried one is the transition of the event's slot in its only source state.
  private func carriedTransitions<Model>(_ compiled: CompiledMachine<Model>) -> [String: Bool] {
    var carried: [String: Bool] = [:]
    for (index, name) in compiled.events.enumerated() {
      let id = compiled.eventIDs[index]
      if id.soleAfterTransition != 0 {
        let slot = compiled.fastSlots[Int(id.column) + Int(id.onlySource)]
        #expect(slot.isLight && slot.rawValue <= compiled.soleAfterSlotLimit)
        let light = compiled.lightTransitions[slot.lightIndex]
        #expect(UInt(bitPattern: light.toOpaque()) == id.soleAfterTransition)
      }
      carried[name] = id.soleAfterTransition != 0
    }
    return carried
  }

  /// For each light slot of `compiled`, whether its transition runs one `after` callback and
  /// nothing else (those first), after checking that the slot limit says the same.
  private func lightSlots<Model>(of compiled: CompiledMachine<Model>) -> [Bool] {
    var kinds: [Bool] = []
    for slot in compiled.fastSlots where slot.isLight {
      let soleAfter = compiled.lightTransitions[slot.lightIndex]._withUnsafeGuaranteedRef {
        $0.soleAfterCallback != nil
      }
      #expect((slot.rawValue <= compiled.soleAfterSlotLimit) == soleAfter)
      kinds.append(soleAfter)
    }
    return kinds.sorted { !$0 && $1 }
  }
}
