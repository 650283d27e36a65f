// A player whose state machine is watched and driven from a browser: start an inspector, attach
// the object, open the URL it prints. The server listens on 127.0.0.1 only; the token after `#`
// is the page's key.
//
//   cd Examples/InspectorDemo && swift run InspectorDemo
import Foundation
import StateMachines
import StateMachinesInspector

@MainActor
@StateMachine
final class Player {
  /// What the page sent with `play`, if anything.
  var lastPayload: String?

  static let stateMachine = StateMachineDefinition<Player> { sm in
    sm.addState("off")
    sm.addState("on") { on in
      on.addState("stopped")
      on.addState("playing")
    }
    sm.when("power", transitionFrom: "off", to: "on")
    sm.when("power", transitionFrom: "on", to: "off")
    sm.when("play", transitionFrom: "stopped", to: "playing")
    sm.when("stop", transitionFrom: "playing", to: "stopped")
  }
}

let player = Player()
let inspector = try await Inspector.start()
inspector.attach(player, name: "player")
// The URL on a line of its own, at once: a script (or a person) opens it.
FileHandle.standardOutput.write(Data((inspector.url.absoluteString + "\n").utf8))

// Serve until Ctrl-C (SIGINT) or SIGTERM.
let (stop, stopping) = AsyncStream<Void>.makeStream()
var signals: [any DispatchSourceSignal] = []
for number in [SIGINT, SIGTERM] {
  signal(number, SIG_IGN)
  let source = DispatchSource.makeSignalSource(signal: number)
  source.setEventHandler { stopping.yield() }
  source.resume()
  signals.append(source)
}
for await _ in stop { break }
await inspector.stop()
withExtendedLifetime(player) {}
