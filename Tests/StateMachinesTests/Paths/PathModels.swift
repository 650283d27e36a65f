// The machines the path generator's tests explore and replay.

import Foundation
import StateMachines

/// A flat order: pay, ship only when `shippable`, cancel from two states, a timeout that cancels
/// an unpaid order, and a final state.
@StateMachine
final class PathOrder: @unchecked Sendable {
  var shippable = true
  var shipments = 0
  static let clock = ManualClock()

  static let stateMachine = StateMachineDefinition<PathOrder> { sm in
    sm.clock = clock
    sm.addState("awaitingPayment")
    sm.addState("paid")
    sm.addState("shipped")
    sm.addFinalState("cancelled")
    sm.when("pay", transitionFrom: "awaitingPayment", to: "paid")
    sm.when("ship", transitionFrom: "paid", to: "shipped").guarded { $0.shippable }
    sm.when("cancel", transitionFrom: ["awaitingPayment", "paid"], to: "cancelled")
    sm.when("expire", transitionFrom: "awaitingPayment", to: "cancelled", after: .seconds(60))
    sm.onEntry("shipped") { $0.shipments += 1 }
  }
}

/// A player with a parallel state (playback and volume regions) and a deep history: pausing
/// leaves `on`, resuming returns to both regions as they were.
enum PathPlayer {
  static func definition() throws -> StateMachineDefinition<DynamicStateMachine> {
    try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      sm.initialState = "off"
      sm.addState("off")
      sm.addParallelState("on") { on in
        on.addState("playback") { playback in
          playback.addState("stopped")
          playback.addState("playing")
        }
        on.addState("volume") { volume in
          volume.addState("quiet")
          volume.addState("loud")
        }
        on.addHistory("resume", .deep)
      }
      sm.addState("paused")
      sm.when("power", transitionFrom: "off", to: "on")
      sm.when("play", transitionFrom: "on/playback/stopped", to: "on/playback/playing")
      sm.when("stop", transitionFrom: "on/playback/playing", to: "on/playback/stopped")
      sm.when("louder", transitionFrom: "on/volume/quiet", to: "on/volume/loud")
      sm.when("pause", transitionFrom: "on", to: "paused")
      sm.when("resume", transitionFrom: "paused", to: "on/resume")
    })
  }
}

/// An upload whose work is an invoke: done and failed are steps of their own.
@MainActor
@StateMachine
final class PathUpload {
  /// The test opens the running work's gate, told to fail or not (`InvocationGates`).
  let gates = InvocationGates()
  struct Failed: Error {}

  static let stateMachine = StateMachineDefinition<PathUpload> { sm in
    sm.addState("idle")
    sm.addState("uploading")
    sm.addState("uploaded")
    sm.addState("failed")
    sm.when("upload", transitionFrom: "idle", to: "uploading")
    sm.when("retry", transitionFrom: "failed", to: "uploading")
    sm.invoke("send", in: "uploading", input: { upload, _ in upload.gates }) { (context: InvocationContext<InvocationGates>) in
      if await context.input.wait(context.generation) { throw Failed() }
    }
    sm.whenInvokeDone("send", transitionTo: "uploaded")
    sm.whenInvokeFailed("send", transitionTo: "failed")
  }
}
