// `StoreStep` on its own: the runtime's store-step mode (P1, P5, P8), without a store.

import Foundation
@testable import StateMachines
import Testing

@Suite("StoreStep: one step on a loaded object, held back until committed", .timeLimit(.minutes(1)))
struct StoreStepTests {
  let orders = StoreOrder.stateMachine
  let players = StorePlayer.stateMachine

  /// A fresh object loaded from `stored`.
  func order(_ stored: StoredMachineState) throws -> StoreOrder {
    let order = StoreOrder(id: StoreTestIDs.next())
    try orders.load(stored, into: order, id: "\(order.id)")
    return order
  }

  @Test("P5: the step holds back after callbacks and observers; committed() runs them once, in order")
  func committedRunsHeldBackWorkOnce() throws {
    let order = try order(StoredMachineState(state: "awaitingPayment", version: 4))
    let step = try orders.storeStep("pay", payload: nil, on: order)
    #expect(order.state == "paid" && order.payments == 1)
    #expect(StoreMarks.shared.of(order.id).isEmpty)
    #expect(step.before == StoredMachineState(state: "awaitingPayment", version: 4))
    #expect(step.after == StoredMachineState(state: "paid", version: 5))
    #expect(step.transitions == [CompletedTransition(from: "awaitingPayment", event: "pay", to: "paid")])
    #expect(step.committed().isEmpty)
    #expect(StoreMarks.shared.of(order.id) == ["after pay", "observed awaitingPayment->paid"])
    step.committed()
    #expect(StoreMarks.shared.of(order.id).count == 2)
  }

  @Test("P5: an after callback that throws after the commit leaves the step standing; committed() returns and logs the error")
  func afterCallbackErrorsAreReportedAndLogged() throws {
    struct Late: Error {}
    let lines = TestRecorder()
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      sm.log = StateMachineLog { lines.append($0) }
      sm.addState("off")
      sm.addState("on")
      sm.when("toggle", transitionFrom: "off", to: "on")
      sm.after("toggle") { _ in throw Late() }
    })
    let machine = DynamicStateMachine(definition)
    try definition.load(StoredMachineState(state: "off"), into: machine, id: "m")
    let step = try definition.storeStep("toggle", payload: nil, on: machine)
    #expect(step.after.state == "on")
    #expect(step.holdsWork)
    let errors = step.committed()
    #expect(!step.holdsWork)
    #expect(errors.count == 1 && errors.first is Late)
    #expect(lines.lines.contains { $0.contains("a callback after the commit threw") && $0.contains("Late") })
    #expect(step.committed().isEmpty)
  }

  @Test("P13: a store-managed object refuses events and restoreState outside a store step; its JSON has no state")
  func storeManagedObjectsChangeOnlyThroughTheStore() throws {
    let order = try order(StoredMachineState(state: "paid", version: 1))
    #expect(!order.fire("ship"))
    #expect(throws: StateMachineError.self) { try order.fireOrThrow("ship") }
    do {
      try order.fireOrThrow("ship")
    } catch {
      #expect(StateMachineErrorCase(error) == .storeManaged(event: "ship"))
    }
    #expect(order.state == "paid")
    #expect(StoreMarks.shared.of(order.id).isEmpty)
    // Nor does restoreState move it: a repair goes through the store's restore.
    do {
      try order.restoreState("cancelled")
      Issue.record("restoreState moved a store-managed object")
    } catch {
      #expect(StateMachineErrorCase(error) == .storeManaged(event: "restoreState"))
    }
    #expect(order.state == "paid")
    #expect(try orders.storeRestore("cancelled", on: order).after.state == "cancelled")
    try orders.load(StoredMachineState(state: "paid", version: 1), into: order, id: "\(order.id)")
    // Inside a store step the same event runs.
    #expect(try orders.storeStep("ship", payload: nil, on: order).after.state == "shipped")
    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(order)) as? [String: Any]
    #expect(json?["state"] == nil)
    #expect(json?["id"] as? Int == order.id)
    // A class that is not store-managed keeps its state in its JSON.
    let plain = String(decoding: try JSONEncoder().encode(DyingJob()), as: UTF8.self)
    #expect(plain.contains("running"))
  }

  @Test("P8: a store step arms no timer; it reports the deadline, and the exits that delete deadlines")
  func armsNoTimer() throws {
    let order = try order(StoredMachineState(state: "awaitingPayment", version: 0))
    let remind = try orders.storeStep("remind", payload: nil, on: order)
    #expect(remind.armed == [ArmedTimeout(state: "awaitingPayment", event: "expire", delay: .seconds(3600))])
    #expect(remind.exited == ["awaitingPayment"])
    #expect(Triggers.armedTimeoutCount(orders, of: order) == 0)
    let note = try orders.storeStep("note", payload: nil, on: order)
    #expect(note.armed.isEmpty && note.exited.isEmpty)
    let pay = try orders.storeStep("pay", payload: nil, on: order)
    #expect(pay.armed.isEmpty && pay.exited == ["awaitingPayment"])
    #expect(Triggers.armedTimeoutCount(orders, of: order) == 0)
  }

  @Test("P8: a terminating step exits every state and arms nothing")
  func terminatingStepExitsEverything() throws {
    let order = try order(StoredMachineState(state: "awaitingPayment", version: 2))
    let step = try orders.storeStep("crash", payload: nil, on: order)
    #expect(step.after.isTerminated && step.after.version == 3)
    #expect(step.exited == ["awaitingPayment"] && step.armed.isEmpty)
  }

  @Test("P1: an eventless and a queued step are microsteps of the same store step")
  func eventlessAndQueuedStepsAreMicrosteps() throws {
    let player = StorePlayer(id: StoreTestIDs.next())
    try players.load(StoredMachineState(state: "off", version: 7), into: player, id: "p")
    let boot = try players.storeStep("boot", payload: nil, on: player)
    // The eventless microstep is recorded under the event whose macrostep it completes (S12).
    #expect(boot.transitions.map(\.description) == ["off --boot--> booting", "booting --boot--> ready"])
    #expect(boot.after.version == 9)
    try players.load(StoredMachineState(state: "off", version: 0), into: player, id: "p")
    let load = try players.storeStep("load", payload: nil, on: player)
    #expect(load.transitions.map(\.description) == ["off --load--> loading", "loading --finish--> loaded"])
    #expect(load.after == StoredMachineState(state: "loaded", version: 2))
  }

  @Test("P8: deadlines of nested states are named by path and armed only while active")
  func nestedDeadlines() throws {
    let player = StorePlayer(id: StoreTestIDs.next())
    try players.load(StoredMachineState(state: "on/playing", version: 0), into: player, id: "p")
    let seek = try players.storeStep("seek", payload: nil, on: player)
    #expect(seek.armed == [ArmedTimeout(state: "on/seeking", event: "giveUp", delay: .seconds(60))])
    let power = try players.storeStep("power", payload: nil, on: player)
    #expect(Set(power.exited) == ["on", "on/seeking"])
    #expect(power.after.history == ["on/resume": ["on/seeking"]])
  }

  @Test("P5: a rejection and a throwing entry action throw; nothing is held back")
  func failuresThrow() throws {
    let order = try order(StoredMachineState(state: "paid", version: 1))
    #expect(throws: StateMachineStoreError.self) { try orders.storeStep("pay", payload: nil, on: order) }
    do {
      _ = try orders.storeStep("smash", payload: nil, on: order)
      Issue.record("the throwing entry action did not fail the step")
    } catch {
      guard case .callbackFailed(let event, _) = error else {
        Issue.record("expected callbackFailed, got \(error)")
        return
      }
      #expect(event == "smash")
    }
    #expect(!StoreMarks.shared.of(order.id).contains("after smash"))
    do {
      _ = try orders.storeStep("fly", payload: nil, on: order)
      Issue.record("an unknown event was accepted")
    } catch {
      guard case .rejected(let reason) = error else {
        Issue.record("expected rejected, got \(error)")
        return
      }
      #expect(StateMachineErrorCase(reason) == .unknownEvent("fly"))
    }
  }

  @Test("P12: load refuses a state, a configuration or a history record the definition lacks")
  func loadRefusesUnknownStates() {
    let player = StorePlayer(id: StoreTestIDs.next())
    for stored in [
      StoredMachineState(state: "legacy"), StoredMachineState(state: "on/stopped,on/playing"),
      StoredMachineState(state: "off", history: ["on/resume": ["deck/audio/loud"]]),
    ] {
      do {
        try players.load(stored, into: player, id: "7")
        Issue.record("\(stored) was loaded")
      } catch {
        guard case .unknownStoredState(let id, let state) = error else {
          Issue.record("expected unknownStoredState, got \(error)")
          continue
        }
        #expect(id == "7" && state == stored.state)
      }
    }
    #expect(player.state == "off")
  }

  @Test("storeStart enters the initial state at version 0 and reports its deadlines")
  func storeStartArmsTheInitialDeadlines() throws {
    let order = StoreOrder(id: StoreTestIDs.next())
    let start = try orders.storeStart(on: order)
    #expect(start.after == StoredMachineState(state: "awaitingPayment", version: 0))
    #expect(start.armed.map(\.event) == ["expire"] && start.transitions.isEmpty)
    #expect(Triggers.armedTimeoutCount(orders, of: order) == 0)
  }
}
