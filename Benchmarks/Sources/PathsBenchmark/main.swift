// How long the path generator (StateMachinePaths) takes: the shortest paths of a 1,000-state chain and of
// a 100 × 100 grid, and the transition cover of the MediaPlayer chart, each the best of five runs
// on the wall clock, release build.
//
//   swift run -c release --disable-experimental-prebuilts PathsBenchmark

import StateMachines

/// s0 → s1 → … → s999 on `next`.
let chain = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
  for index in 0..<1_000 { sm.addState("s\(index)") }
  for index in 0..<999 { sm.when("next", transitionFrom: "s\(index)", to: "s\(index + 1)") }
})

/// A 100 × 100 grid of states `r<row>c<column>`, moved through by up, down, left and right.
let grid = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
  let size = 100
  func name(_ row: Int, _ column: Int) -> String { "r\(row)c\(column)" }
  for row in 0..<size { for column in 0..<size { sm.addState(name(row, column)) } }
  for row in 0..<size {
    for column in 0..<size {
      if row > 0 { sm.when("up", transitionFrom: name(row, column), to: name(row - 1, column)) }
      if row < size - 1 { sm.when("down", transitionFrom: name(row, column), to: name(row + 1, column)) }
      if column > 0 { sm.when("left", transitionFrom: name(row, column), to: name(row, column - 1)) }
      if column < size - 1 { sm.when("right", transitionFrom: name(row, column), to: name(row, column + 1)) }
    }
  }
})

/// The MediaPlayer example's chart: a parallel state in a compound one, deep history, a junction
/// with a guard, a local transition and a timeout.
let mediaPlayer = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
  sm.clock = ManualClock()
  sm.addState("off")
  sm.addState("empty")
  sm.addState("on") { on in
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
    on.addHistory("resume", .deep)
  }
  sm.addJunction("startup") { j in
    j.path(to: "on/resume", if: { _, _ in true })
    j.otherwise(to: "empty")
  }
  sm.when("power", transitionFrom: "off", to: "startup")
  sm.when("power", transitionFrom: ["on", "empty"], to: "off")
  sm.when("insertDisc", transitionFrom: "empty", to: "on")
  sm.when("play", transitionFrom: ["stopped", "paused"], to: "playing")
  sm.when("pause", transitionFrom: "playing", to: "paused")
  sm.when("stop", transitionFrom: "transport", to: "stopped", kind: .local)
  sm.when("mute", transitionFrom: "normal", to: "muted")
  sm.when("unmute", transitionFrom: "muted", to: "normal")
  sm.when("sleep", transitionFrom: "paused", to: "off", after: .seconds(300))
})

var limits = StateMachinePaths.Limits()
limits.maxConfigurations = 20_000

/// Best of five: exploring the definition and running the generator.
func measure(_ name: String, _ run: () throws -> StateMachinePathSet) rethrows {
  var best = Duration.seconds(1_000)
  var result: StateMachinePathSet?
  for _ in 0..<5 {
    let clock = ContinuousClock()
    let start = clock.now
    result = try run()
    best = min(best, clock.now - start)
  }
  let set = result!
  let milliseconds = Double(best.components.attoseconds) / 1e15 + Double(best.components.seconds) * 1e3
  let stopped = set.stoppedEarly.map { ", stopped: \($0)" } ?? ""
  let bound = set.lowerBound.map { " (lower bound \($0))" } ?? ""
  print("\(name): \(String(format: "%.1f", milliseconds)) ms, \(set.paths.count) paths, \(set.stepCount) steps\(bound)\(stopped)")
}

try measure("shortest paths, 1,000-state chain") { try StateMachinePaths(chain, limits: limits).shortestPaths() }
try measure("shortest paths, 100 × 100 grid") { try StateMachinePaths(grid, limits: limits).shortestPaths() }
try measure("transition cover, MediaPlayer") { try StateMachinePaths(mediaPlayer, limits: limits).transitionCover() }
