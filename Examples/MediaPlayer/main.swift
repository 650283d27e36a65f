// A media player that shows a hierarchical state machine: nested states, a parallel state with two
// regions, deep history, a timeout on a nested state and a junction.
//
//   swift run MediaPlayer
import StateMachines

@MainActor
@StateMachine
final class MediaPlayer {
  /// The clock of the timeouts; a manual clock, so the walk-through runs at once.
  static let clock = ManualClock()

  var hasDisc = false

  static let stateMachine = StateMachineDefinition<MediaPlayer> { sm in
    sm.clock = MediaPlayer.clock
    sm.addState("off")
    sm.addState("empty")
    sm.addState("on") { on in
      // Two regions, both active while the player is on.
      on.addParallelState("media") { media in
        media.addState("transport") { transport in
          transport.addState("stopped")
          transport.addState("playing")
          transport.addState("paused")
        }
        media.addState("volume") { volume in
          volume.addState("normal")
          volume.addState("muted")
        }
      }
      // Powering on again resumes where the player was, in both regions.
      on.addHistory("resume", .deep)
      on.onEntry { _, _ in print("    (spinning up)") }
      on.onExit { _, _ in print("    (spinning down)") }
    }
    // Power goes through a junction: with a disc to where the player was, else to "empty".
    sm.addJunction("startup") { j in
      j.path(to: "on/resume", if: { player, _ in player.hasDisc })
      j.otherwise(to: "empty")
    }
    sm.when("power", transitionFrom: "off", to: "startup")
    sm.when("power", transitionFrom: ["on", "empty"], to: "off")
    sm.when("insertDisc", transitionFrom: "empty", to: "on").action { player in player.hasDisc = true }
    sm.when("play", transitionFrom: ["stopped", "paused"], to: "playing")
    sm.when("pause", transitionFrom: "playing", to: "paused")
    // Local: "transport" is not exited, so the volume region keeps its state. (An external
    // transition's domain would be "on", above the parallel state: both regions would restart.)
    sm.when("stop", transitionFrom: "transport", to: "stopped", kind: .local)
    sm.when("mute", transitionFrom: "normal", to: "muted")
    sm.when("unmute", transitionFrom: "muted", to: "normal")
    // Paused for five minutes, the player goes to sleep.
    sm.when("sleep", transitionFrom: "paused", to: "off", after: .seconds(300))
  }

  /// Fires `event` by name and prints the outcome and the active configuration.
  func step(_ event: String) {
    let happened = fire(event)
    report("\(event)\(happened ? "" : " (rejected)")")
  }

  func report(_ title: String) {
    print("\(title) -> \(state)")
    for line in configurationDescription.split(separator: "\n") { print("    \(line)") }
  }
}

@MainActor
func walkThrough() async {
  let player = MediaPlayer()
  print("The diagram (Mermaid):\n")
  print(MediaPlayer.stateMachine.mermaidDiagram)
  player.report("start")
  player.step("power")  // no disc: the junction leads to "empty"
  player.step("play")  // rejected: nothing to play
  player.step("insertDisc")
  player.step("play")
  player.step("mute")
  player.step("pause")
  print("isPlaying: \(player.isPlaying), isPaused: \(player.isPaused), isMuted: \(player.isMuted), isOn: \(player.isOn)")
  player.step("power")
  player.step("power")  // deep history: paused and muted again
  print("five minutes pass…")
  await MediaPlayer.clock.advance(by: .seconds(300))
  player.report("timeout 'sleep'")
  player.step("power")  // history again
  player.step("stop")  // still muted: a local transition
  print("\nThe diagram (DOT, render with `dot -Tsvg`):\n")
  print(MediaPlayer.stateMachine.dotDiagram)
}

/// Tests generated from the machine: paths that take every transition and both outcomes of the
/// junction's guard (the player has a disc, or not), each replayed on a fresh player and checked
/// after every step (the timeout moves the manual clock), and what they covered.
@MainActor
func generatedTests() async throws {
  print("\nGenerated tests:")
  let paths = try StateMachinePaths(MediaPlayer.stateMachine)
  let coverage = StateMachineCoverage(paths)
  for path in paths.transitionCover().paths {
    try await path.replay(
      on: { MediaPlayer() }, coverage: coverage,
      before: { player, step in
        // The only guard is the junction's: whether the player has a disc.
        if let disc = step.guards.first { player.hasDisc = disc.holds }
      })
    print("  ✓ \(path)")
  }
  print(coverage.report)
}

if let error = MediaPlayer.stateMachine.definitionError { fatalError("invalid definition: \(error)") }
await walkThrough()
try await generatedTests()
