// `StateMachineDefinition.pureStoreStep`: the fast path's question (Persistence §6), asked of
// the definition alone; its answer must be what `storeStep` does on a loaded object.

import Foundation
import StateMachines
import Testing

@Suite("pureStoreStep: which stored steps need no object (Persistence §6)")
struct PureStoreStepTests {
  let switches = StoreSwitch.stateMachine
  let none = StoreConfiguration<StoreSwitch>()

  @Test("Persistence §6: a step without code is pure, and is exactly the full step on a loaded object (P2, P8)")
  func pureStepIsTheFullStep() throws {
    for (state, event) in [("off", "flip"), ("on", "flip"), ("off", "tap")] {
      let stored = StoredMachineState(state: state, version: 7)
      let pure = try #require(switches.pureStoreStep(event, payload: 3, from: stored, configuration: none))
      let object = StoreSwitch(id: StoreTestIDs.next())
      try switches.load(stored, into: object, id: "\(object.id)")
      let full = try switches.storeStep(event, payload: 3, on: object)
      #expect(pure.before == full.before && pure.after == full.after, "\(state) \(event)")
      #expect(pure.transitions == full.transitions && pure.transitions.map { $0.payload(as: Int.self) } == [3])
      // P8: the full step also lists the states it left, whose deadline rows a store deletes; a
      // pure step leaves no state with a timeout, so it has none to delete.
      #expect(pure.exited.isEmpty && full.exited.allSatisfy { switches.timeoutEvents(of: $0).isEmpty })
      #expect(pure.armed.isEmpty && full.armed.isEmpty && !pure.holdsWork && !full.holdsWork)
    }
    #expect(switches.pureStoreTransitions("flip", configuration: none).map { "\($0.from)->\($0.to)" } == ["off->on", "on->off"])
  }

  @Test("Persistence §6: an entry action, a guard, a timeout, a final state, a rejection, a terminated row or an outbox rule need the full path")
  func impureStepsAreNot() {
    for (state, event) in [
      ("on", "jam"), ("jammed", "fix"), ("off", "sleep"), ("asleep", "wake"), ("on", "smash"), ("jammed", "flip"),
      ("off", "nonsense"), ("legacy", "flip"),
    ] {
      #expect(switches.pureStoreStep(event, payload: nil, from: StoredMachineState(state: state), configuration: none) == nil, "\(state) \(event)")
    }
    let terminated = StoredMachineState(state: "off", isTerminated: true)
    #expect(switches.pureStoreStep("flip", payload: nil, from: terminated, configuration: none) == nil)
    var outbox = StoreConfiguration<StoreSwitch>()
    outbox.outbox(after: "flip", topic: "flips") { _, _ in "flipped" }
    #expect(switches.pureStoreStep("flip", payload: nil, from: StoredMachineState(state: "off"), configuration: outbox) == nil)
    #expect(switches.pureStoreStep("tap", payload: nil, from: StoredMachineState(state: "off"), configuration: outbox) != nil)
    // Observers (every step of StoreOrder) and statecharts always take the full path.
    #expect(StoreOrder.stateMachine.pureStoreTransitions("cancel", configuration: .init()).isEmpty)
    #expect(StorePlayer.stateMachine.pureStoreTransitions("power", configuration: .init()).isEmpty)
  }
}
