import Foundation
import Testing

@testable import StateMachines

/// A player whose work hears the machine's external events (Invoke I13).
@MainActor
@StateMachine
final class InvokePlayer {
  let heard = TestRecorder()
  var beeps = 0
  static let stateMachine = StateMachineDefinition<InvokePlayer> { sm in
    sm.addState("stopped")
    sm.addState("playing")
    sm.when("play", transitionFrom: "stopped", to: "playing")
    sm.when("stop", transitionFrom: "playing", to: "stopped")
    sm.when("louder", transitionFrom: "playing", to: "playing", internal: true)
    sm.when("beep", transitionFrom: "playing", to: "playing", internal: true).action { $0.beeps += 1 }
    // A callback's own event is internal: not forwarded.
    sm.after("louder") { player in player.fire("beep") }
    sm.invoke("speaker", in: "playing", input: { player, _ in player.heard }) { context in
      for await event in context.events {
        context.input.append("\(event.name) \(event.payload(as: Int.self).map(String.init) ?? "-")")
      }
      context.input.append("ended")
    }
    .autoforward()
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct InvokeAutoforwardTests {
  @Test("I13: external events reach the work while it runs; internal ones do not; exit ends its stream")
  func forwardsExternalEvents() async {
    let player = InvokePlayer()
    #expect(player.fire("play"))
    #expect(player.fire("louder", payload: 3))
    #expect(player.beeps == 1)
    #expect(player.post("louder", payload: 4))
    await eventually { player.heard.lines.count == 2 }
    #expect(player.fire("stop"))
    await player.waitForInvocations()
    // The event that left the state was forwarded before its step, then the stream finished.
    #expect(player.heard.lines == ["louder 3", "louder 4", "stop -", "ended"])
    #expect(player.beeps == 2)
    // Not forwarded once stopped.
    #expect(!player.fire("louder"))
    #expect(player.heard.lines.count == 4)
  }
}
