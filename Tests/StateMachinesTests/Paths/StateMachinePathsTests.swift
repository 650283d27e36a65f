// The path generator on machines small enough to check by hand: the configurations, the
// shortest paths, the cover of every transition and guard outcome, simple paths, and replaying
// the paths on real objects with coverage.

import Foundation
@testable import StateMachines
import Testing

@Suite("Paths: generated from the machine, replayed on real objects", .timeLimit(.minutes(1)))
struct StateMachinePathsTests {
  @Test("the shortest path to every configuration of a flat machine, named readably")
  func shortestPathsOfAFlatMachine() throws {
    let paths = try StateMachinePaths(PathOrder.stateMachine)
    #expect(paths.stoppedEarly == nil)
    let shortest = paths.shortestPaths()
    #expect(shortest.paths.map(\.configuration) == [["awaitingPayment"], ["paid"], ["cancelled"], ["shipped"]])
    #expect(shortest.paths.map(\.description) == [
      "awaitingPayment",
      "awaitingPayment –pay→ paid",
      "awaitingPayment –cancel→ cancelled",
      "awaitingPayment –pay→ paid –ship→ shipped",
    ])
    let ship = try #require(shortest.paths.last?.steps.last)
    #expect(ship.guards.map(\.holds) == [true])
    #expect(ship.transitions == ["paid –ship→ shipped"])
  }

  @Test("the cover takes every transition and both outcomes of the guard, with the timeout as a step")
  func coverOfAFlatMachine() throws {
    let paths = try StateMachinePaths(PathOrder.stateMachine)
    let cover = paths.transitionCover()
    #expect(cover.unreached.isEmpty)
    let taken = Set(cover.paths.flatMap { $0.steps.flatMap(\.transitions) })
    #expect(taken == Set(paths.transitionNames))
    let outcomes = Set(cover.paths.flatMap { $0.steps.flatMap { $0.guards.map(\.description) } })
    #expect(outcomes == ["[paid –ship→ shipped]", "[not paid –ship→ shipped]"])
    let refused = cover.paths.flatMap(\.steps).filter { !$0.accepted }
    #expect(refused.map(\.description) == ["–ship [not paid –ship→ shipped] (refused)→ paid"])
    #expect(cover.paths.flatMap(\.steps).contains { $0.kind == .timeout(event: "expire", after: .seconds(60)) })
    let bound = try #require(cover.lowerBound)
    #expect(bound <= cover.stepCount)
  }

  @Test("replaying every path on real objects, with hooks for the guard and coverage of the run")
  func replayWithCoverage() async throws {
    let paths = try StateMachinePaths(PathOrder.stateMachine)
    let coverage = StateMachineCoverage(paths)
    for path in paths.transitionCover().paths {
      try await path.replay(
        on: { PathOrder() }, coverage: coverage,
        before: { order, step in
          if let ship = step.guards.first { order.shippable = ship.holds }
        },
        after: { order, step in
          if step.configuration == ["shipped"] { #expect(order.shipments == 1) }
        })
    }
    let report = coverage.report
    #expect(report.transitions.never.isEmpty && report.guardOutcomes.never.isEmpty)
    #expect(report.states.seen.sorted() == ["awaitingPayment", "cancelled", "paid", "shipped"])
    #expect(report.timeouts.seen == ["awaitingPayment –expire→ cancelled"])
    // cancel leaves two states: two targets.
    #expect(report.description.contains("transitions: 5 of 5"))
    #expect(report.transitions.seen.contains("paid –cancel→ cancelled"))
    let decoded = try JSONDecoder().decode(StateMachineCoverage.Report.self, from: Data(report.json.utf8))
    #expect(decoded == report)
  }

  @Test("a replay that does not check out reports the path so far, the expected and the actual configuration")
  func replayMismatch() async throws {
    let paths = try StateMachinePaths(PathOrder.stateMachine)
    let ship = try #require(paths.shortestPaths().paths.first { $0.configuration == ["shipped"] })
    await #expect {
      try await ship.replay(on: { PathOrder() }, before: { order, _ in order.shippable = false })
    } throws: { error in
      guard let error = error as? PathReplayError else { return false }
      return error.step == 2 && error.expectedConfiguration == ["shipped"] && error.actualConfiguration == ["paid"]
        && error.actualAccepted == false
        && error.description.hasPrefix("path awaitingPayment –pay→ paid –ship→ shipped\nstep 2")
    }
  }

  @Test("configurations, not leaves: parallel regions and the deep history's records are nodes of their own")
  func parallelAndHistory() async throws {
    let definition = try PathPlayer.definition()
    let paths = try StateMachinePaths(definition)
    // off; on with its 4 region configurations before any pause; paused with each of 4 records;
    // on again under each record: 4 from stopped/quiet and playing/quiet, 2 from the loud ones
    // (the volume never goes back down). The records make nodes of their own.
    #expect(paths.configurations.count == 21)
    #expect(paths.configurations.filter { $0 == ["paused"] }.count == 4)
    let cover = paths.transitionCover()
    #expect(cover.unreached.isEmpty)
    for path in paths.shortestPaths().paths + cover.paths {
      try await path.replay(on: { DynamicStateMachine(definition) })
    }
    // Resuming returns to the configuration paused from (the deep history).
    for path in cover.paths {
      for (index, step) in path.steps.enumerated() where step.label == "resume" && index >= 2 {
        #expect(step.configuration == path.steps[index - 2].configuration, "\(path)")
      }
    }
  }

  @Test("an invoke's result is a step: done and failed, replayed by letting the work finish as the step says")
  @MainActor
  func invokeSteps() async throws {
    let paths = try StateMachinePaths(PathUpload.stateMachine)
    let shortest = paths.shortestPaths()
    #expect(shortest.paths.map(\.description) == [
      "idle",
      "idle –upload→ uploading",
      "idle –upload→ uploading –done: send→ uploaded",
      "idle –upload→ uploading –error: send→ failed",
    ])
    let coverage = StateMachineCoverage(paths)
    for path in paths.transitionCover().paths {
      try await path.replay(
        on: { PathUpload() }, coverage: coverage,
        before: { upload, step in
          guard let running = upload.activeInvocations.first?.generation else { return }
          switch step.kind {
          case .invokeDone: upload.gates.open(running)
          case .invokeFailed: upload.gates.open(running, failing: true)
          default: break
          }
        })
    }
    #expect(coverage.report.transitions.never.isEmpty)
  }

  @Test(
    "Swift Testing: each path of the cover is an argument of its own, named as it reads",
    arguments: try! StateMachinePaths(PathOrder.stateMachine).transitionCover().paths)
  func eachPathIsATest(_ path: StateMachinePath) async throws {
    #expect(path.description.hasPrefix("awaitingPayment"))
    try await path.replay(
      on: { PathOrder() },
      before: { order, step in
        if let ship = step.guards.first { order.shippable = ship.holds }
      })
  }

  @Test("simple paths between two states, bounded")
  func simplePaths() throws {
    let paths = try StateMachinePaths(try PathPlayer.definition())
    let simple = paths.simplePaths(from: "off", to: "on/playback/playing", maxLength: 3, maxCount: 10)
    #expect(!simple.paths.isEmpty)
    for path in simple.paths {
      #expect(path.configuration.contains("on/playback/playing"))
      let configurations = path.steps.map(\.configuration)
      #expect(Set(configurations).count == configurations.count, "\(path)")
    }
    #expect(paths.simplePaths(from: "nowhere", to: "off").unreached == ["nowhere"])
  }

  @Test("limits: a chain longer than maxConfigurations stops and says so")
  func limits() throws {
    let chain = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      for index in 0..<50 { sm.addState("s\(index)") }
      for index in 0..<49 { sm.when("next", transitionFrom: "s\(index)", to: "s\(index + 1)") }
    })
    var limits = StateMachinePaths.Limits()
    limits.maxConfigurations = 10
    let paths = try StateMachinePaths(chain, limits: limits)
    #expect(paths.configurations.count == 10)
    #expect(paths.stoppedEarly?.contains("maxConfigurations") == true)
    #expect(paths.shortestPaths().stoppedEarly != nil)

    // Limits of zero or less give no paths and say why, and never crash.
    var none = StateMachinePaths.Limits()
    none.maxConfigurations = 0
    let nothing = try StateMachinePaths(chain, limits: none)
    #expect(nothing.configurations.isEmpty && nothing.shortestPaths().paths.isEmpty)
    #expect(nothing.transitionCover().paths.isEmpty && nothing.stoppedEarly != nil)
    var unbranched = StateMachinePaths.Limits()
    unbranched.maxGuardCombinations = 0
    unbranched.maxLength = -1
    unbranched.maxPaths = 0
    let stopped = try StateMachinePaths(chain, limits: unbranched)
    #expect(stopped.shortestPaths().paths.isEmpty && stopped.transitionCover().paths.isEmpty)
    #expect(stopped.stoppedEarly?.contains("maxGuardCombinations") == true)
    #expect(paths.simplePaths(from: "s0", to: "s1", maxLength: 0).paths.isEmpty)
    #expect(paths.simplePaths(from: "s0", to: "s1", maxCount: -5).paths.isEmpty)
    #expect(paths.simplePaths(from: "s0", to: "s1").paths.map(\.description) == ["s0 –next→ s1"])
  }
}
