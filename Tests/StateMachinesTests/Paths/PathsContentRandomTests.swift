// The path explorer on random charts whose executable content raises, sends (now and later),
// cancels and chooses on In(), in every position (transitions, onentry, onexit): written as
// SCXML, and declared in Swift (flat and hierarchical). Every shortest and cover path is replayed
// in the Appendix D oracle, step by step, and on the runtime; the cover takes every transition
// the oracle can take from the start, and reports the others unreached.

import Foundation
@testable import StateMachines
import StateMachinesSCXML
import Testing

@Suite("Paths on random charts with raise, send, cancel and if: the Appendix D oracle agrees", .timeLimit(.minutes(5)))
struct PathsContentRandomTests {
  static var limits: StateMachinePaths.Limits {
    var limits = StateMachinePaths.Limits()
    limits.maxConfigurations = 400
    return limits
  }

  /// The chart of `seed` as an SCXML document, loaded.
  static func scxmlDefinition(_ chart: RandomChart) throws -> StateMachineDefinition<DynamicStateMachine> {
    try StateMachineDefinition<DynamicStateMachine>(scxml: Data(chart.scxml.utf8), clock: ManualClock(), bind: { _ in }) { sm in
      sm.maxStepsPerRunToCompletion = AppendixDOracle.maxSteps
      sm.maxEventlessMicrosteps = AppendixDOracle.maxEventless
      sm.log = StateMachineLog { _ in }
    }
  }

  @Test("SCXML: 200 random charts, every path replays in the oracle and on the runtime, the cover is the oracle's")
  func randomSCXMLCharts() async throws {
    var checked = 0
    var covered = 0
    for seed in UInt64(1)...200 {
      // Long and synchronous per seed: let the suites that wait on the shared pool run between.
      await Task.yield()
      let chart = RandomChart.withContent(seed: seed)
      let definition: StateMachineDefinition<DynamicStateMachine>
      do {
        definition = try Self.scxmlDefinition(chart)
      } catch {
        Issue.record("seed \(seed): the document was refused: \(error)\n\(chart.scxml)")
        return
      }
      guard definition.definitionError == nil else { continue }
      if let failure = await Self.check(chart, definition, seed: seed, covered: &covered) {
        Issue.record("seed \(seed): \(failure)\n\(chart)\n\(chart.scxml)")
        return
      }
      checked += 1
    }
    #expect(checked >= 150, "only \(checked) charts checked")
    #expect(covered >= 100, "only \(covered) covers compared with the oracle's")
  }

  @Test("Swift: random hierarchical and flat definitions with declared raises and sends agree with the oracle", arguments: [false, true])
  func randomSwiftDefinitions(flat: Bool) async throws {
    var checked = 0
    var covered = 0
    for seed in UInt64(1)...150 {
      await Task.yield()
      let chart = RandomChart.withContent(seed: seed, flat: flat)
      let definition = chart.contentDefinition(clock: ManualClock())
      guard definition.definitionError == nil else { continue }
      if flat { #expect(!definition.declarations.isHierarchical, "seed \(seed): a flat chart needs the flat engine") }
      if let failure = await Self.check(chart, definition, seed: seed, covered: &covered) {
        Issue.record("seed \(seed): \(failure)\n\(chart)")
        return
      }
      checked += 1
    }
    #expect(checked >= 100, "only \(checked) definitions checked")
    #expect(covered >= 60, "only \(covered) covers compared with the oracle's")
  }

  /// The first disagreement between the explorer's paths and the oracle or the runtime, if any.
  static func check(
    _ chart: RandomChart, _ definition: StateMachineDefinition<DynamicStateMachine>, seed: UInt64, covered: inout Int
  ) async -> String? {
    let paths: StateMachinePaths
    do {
      paths = try StateMachinePaths(evaluatingGuardsOf: definition, limits: limits)
    } catch {
      return "explorer: \(error)"
    }
    let cover = paths.transitionCover()
    for path in paths.shortestPaths().paths + cover.paths {
      if let failure = replayInOracle(chart, path) { return failure }
      do {
        try await path.replay(on: { DynamicStateMachine(definition) })
      } catch {
        return "runtime replay: \(error)"
      }
    }
    guard paths.stoppedEarly == nil, let takeable = oracleTakeable(chart, limit: 3_000) else { return nil }
    let taken = Set(cover.paths.flatMap { $0.steps.flatMap(\.transitions) })
    let unreached = Set(cover.unreached)
    for (index, name) in chart.explorerNames.sorted(by: { $0.key < $1.key }) {
      if takeable.contains(index) && !taken.contains(name) { return "the oracle takes t\(index) (\(name)), the cover does not" }
      if !takeable.contains(index) && !unreached.contains(name) {
        return "the oracle never takes t\(index) (\(name)), the cover does not report it unreached"
      }
    }
    covered += 1
    return nil
  }

  /// Replays `path` in the oracle: after each step, the oracle's configuration (while it runs)
  /// must be the step's, a fired event taken or refused alike, a timed step the oracle's next
  /// delayed sends.
  static func replayInOracle(_ chart: RandomChart, _ path: StateMachinePath) -> String? {
    let oracle = AppendixDOracle(chart)
    for (index, step) in path.steps.enumerated() {
      var accepted: Bool?
      switch step.kind {
      case .start:
        oracle.start()
      case .event(let event):
        accepted = oracle.send(event)
      case .delayedSend(let events, let delay):
        guard let due = oracle.deliverDue(), due.events == events, due.delay == delay else {
          return "oracle replay, step \(index) of \(path): the oracle has no delayed sends \(events) due after \(delay)"
        }
      default:
        return "oracle replay, step \(index) of \(path): a step these charts cannot have"
      }
      if let accepted, accepted != step.accepted {
        return "oracle replay, step \(index) of \(path): the oracle \(accepted ? "took" : "refused") it"
      }
      if oracle.running, oracle.leafPaths != step.configuration {
        return "oracle replay, step \(index) of \(path): the oracle is in \(oracle.leafPaths)"
      }
    }
    return nil
  }

  /// The transitions the oracle takes in some run from the start, by breadth-first search over
  /// its configurations, histories and waiting delayed sends; `nil` past `limit` nodes.
  static func oracleTakeable(_ chart: RandomChart, limit: Int) -> Set<Int>? {
    struct Node: Hashable {
      let configuration: Set<String>
      let history: [String: [String]]
      let running: Bool
      let pending: [AppendixDOracle.PendingSend]
    }
    let events = Set(chart.transitions.compactMap(\.event).filter { !$0.hasPrefix("done.") }).sorted()
    var takeable: Set<Int> = []
    func node(_ oracle: AppendixDOracle) -> Node {
      takeable.formUnion(oracle.takenTransitions)
      return Node(configuration: oracle.configuration, history: oracle.history, running: oracle.running, pending: oracle.pending)
    }
    let first = AppendixDOracle(chart)
    first.start()
    var seen: Set<Node> = [node(first)]
    var queue = Array(seen)
    var head = 0
    while head < queue.count {
      let current = queue[head]
      head += 1
      guard current.running else { continue }
      for step in events.map(Optional.some) + (current.pending.isEmpty ? [] : [nil]) {
        let oracle = AppendixDOracle(chart)
        oracle.restore(
          configuration: current.configuration, history: current.history, running: current.running,
          pending: current.pending)
        if let event = step { oracle.send(event) } else { oracle.deliverDue() }
        let next = node(oracle)
        if seen.insert(next).inserted {
          queue.append(next)
          if queue.count > limit { return nil }
        }
      }
    }
    return takeable
  }
}
