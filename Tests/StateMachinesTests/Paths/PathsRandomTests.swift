// The path generator on random definitions: flat machines against a naive breadth-first oracle,
// and random statecharts (as the differential test makes them) whose every generated path is
// replayed on the real runtime, each guard answering as the step says.

import Foundation
@testable import StateMachines
import Testing

/// The answers a replayed step's guards give, in the order the runtime asks (then `true`).
///
/// `@unchecked Sendable`: a replay runs on one task.
final class GuardPlan: @unchecked Sendable {
  private var answers: [Bool] = []
  func plan(_ step: StateMachinePathStep) { answers = step.guards.filter { !$0.isEvaluated }.map(\.holds) }
  func next() -> Bool { answers.isEmpty ? true : answers.removeFirst() }
}

/// A random flat machine as plain data: states (some final), transitions in declaration order.
struct RandomFlatMachine {
  struct Transition {
    let event: String
    let from: [Int]
    let to: Int
    let guarded: Bool
  }
  let states: [String]
  let finals: Set<Int>
  let transitions: [Transition]

  init(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let count = Int.random(in: 2...9, using: &random)
    states = (0..<count).map { "s\($0)" }
    finals = Set((1..<count).filter { _ in random.chance(0.15) })
    let events = ["a", "b", "c", "d"]
    transitions = (0..<Int.random(in: 1...(count * 3), using: &random)).map { _ in
      let from = (0..<count).filter { _ in random.chance(0.3) }
      return Transition(
        event: random.pick(events), from: from.isEmpty ? [Int.random(in: 0..<count, using: &random)] : from,
        to: Int.random(in: 0..<count, using: &random), guarded: random.chance(0.4))
    }
  }

  func definition(_ plan: GuardPlan) -> StateMachineDefinition<DynamicStateMachine> {
    StateMachineDefinition<DynamicStateMachine> { sm in
      for (index, name) in states.enumerated() {
        if finals.contains(index) { sm.addFinalState(name) } else { sm.addState(name) }
      }
      for transition in transitions {
        let declared = sm.when(transition.event, transitionFrom: transition.from.map { states[$0] }, to: states[transition.to])
        if transition.guarded { declared.guarded { _ in plan.next() } }
      }
    }
  }

  /// The naive oracle: breadth-first over states; from a state, an event can reach the target
  /// of each candidate (its transitions from that state, in declaration order) up to and
  /// including the first without a guard. A final state ends the machine.
  func distances() -> (distance: [Int: Int], takeable: Set<[Int]>) {
    var distance = [0: 0]
    var takeable: Set<[Int]> = []
    var queue = [0]
    var head = 0
    while head < queue.count {
      let state = queue[head]
      head += 1
      guard !finals.contains(state) else { continue }
      for event in Set(transitions.map(\.event)) {
        for (index, transition) in transitions.enumerated() where transition.event == event && transition.from.contains(state) {
          takeable.insert([index, state])
          if distance[transition.to] == nil {
            distance[transition.to] = distance[state]! + 1
            queue.append(transition.to)
          }
          if !transition.guarded { break }
        }
      }
    }
    return (distance, takeable)
  }
}

@Suite("Paths on random definitions: the naive oracle, and every path replayed", .timeLimit(.minutes(2)))
struct PathsRandomTests {
  @Test("flat: same shortest lengths as the oracle's breadth-first search, every takeable transition covered, every path replays")
  func randomFlatMachines() async throws {
    for seed in UInt64(1)...150 {
      let machine = RandomFlatMachine(seed: seed)
      let plan = GuardPlan()
      let definition = machine.definition(plan)
      let paths = try StateMachinePaths(definition)
      let (distance, takeable) = machine.distances()
      let shortest = paths.shortestPaths()
      let lengths = Dictionary(uniqueKeysWithValues: shortest.paths.map { ($0.configuration[0], $0.steps.count - 1) })
      let expected = Dictionary(uniqueKeysWithValues: distance.map { (machine.states[$0.key], $0.value) })
      #expect(lengths == expected, "seed \(seed)")
      let cover = paths.transitionCover()
      let taken = Set(cover.paths.flatMap { $0.steps.flatMap(\.transitions) })
      for pair in takeable {
        let transition = machine.transitions[pair[0]]
        // A transition from several states is one target per source.
        let source = transition.from.count > 1 ? machine.states[pair[1]] : machine.states[transition.from[0]]
        let name = "\(source) –\(transition.event)→ \(machine.states[transition.to])"
        #expect(taken.contains(name), "seed \(seed): \(name) not covered")
      }
      for path in shortest.paths + cover.paths {
        do {
          try await path.replay(on: { DynamicStateMachine(definition) }, before: { _, step in plan.plan(step) })
        } catch {
          Issue.record("seed \(seed): \(error)")
        }
      }
    }
  }

  @Test("statecharts: every shortest and cover path of a random chart replays on the runtime, step by step")
  func randomStatecharts() async throws {
    var limits = StateMachinePaths.Limits()
    limits.maxConfigurations = 400
    for seed in UInt64(1)...200 {
      var chart = RandomChart(seed: seed)
      // Events raised by actions are not part of the skeleton; this test's actions raise none.
      chart.transitions = chart.transitions.filter { $0.event.map { !$0.contains(".invoke.") } ?? true }.map {
        RandomChart.Transition(
          source: $0.source, event: $0.event, targets: $0.targets, kind: $0.kind, guardID: $0.guardID, raises: nil)
      }
      let plan = GuardPlan()
      let definition = Self.definition(chart, plan)
      guard definition.definitionError == nil else { continue }
      let paths = try StateMachinePaths(definition, limits: limits)
      let cover = paths.transitionCover()
      if paths.stoppedEarly == nil {
        // Every transition is taken by the cover, or reported unreached.
        let taken = Set(cover.paths.flatMap { $0.steps.flatMap(\.transitions) })
        #expect(taken == Set(paths.transitionNames).subtracting(cover.unreached), "seed \(seed)")
      }
      for path in paths.shortestPaths().paths + cover.paths {
        do {
          try await path.replay(on: { DynamicStateMachine(definition) }, before: { _, step in plan.plan(step) })
        } catch {
          Issue.record("seed \(seed): \(error)\n\(chart)")
          return
        }
      }
    }
  }

  @Test("statecharts: every non-final configuration the Appendix D oracle reaches breadth-first has a shortest path of the same length")
  func randomStatechartsAgainstTheOracle() throws {
    var limits = StateMachinePaths.Limits()
    limits.maxConfigurations = 400
    var compared = 0
    for seed in UInt64(1)...200 {
      var chart = RandomChart(seed: seed)
      chart.transitions = chart.transitions.filter { $0.event.map { !$0.contains(".invoke.") } ?? true }.map {
        RandomChart.Transition(
          source: $0.source, event: $0.event, targets: $0.targets, kind: $0.kind, guardID: $0.guardID, raises: nil)
      }
      let definition = Self.definition(chart, GuardPlan())
      guard definition.definitionError == nil else { continue }
      let paths = try StateMachinePaths(definition, limits: limits)
      guard paths.stoppedEarly == nil, let oracle = Self.oracleDistances(chart, limit: 2_000) else { continue }
      var generated: [[String]: Int] = [:]
      for path in paths.shortestPaths().paths {
        generated[path.configuration] = min(generated[path.configuration] ?? .max, path.steps.count - 1)
      }
      for (configuration, distance) in oracle where generated[configuration] != distance {
        Issue.record("seed \(seed): [\(configuration.joined(separator: ", "))] at \(distance) steps by the oracle, \(generated[configuration].map(String.init) ?? "never") generated\n\(chart)")
        return
      }
      compared += 1
    }
    #expect(compared >= 100, "only \(compared) charts compared")
  }

  /// The oracle's breadth-first search: per configuration of the active atomic states (as
  /// paths, sorted) of a running machine, the fewest steps that reach it; every outcome of every
  /// guard is tried, each guard answering once per selection. `nil` past `limit` nodes.
  static func oracleDistances(_ chart: RandomChart, limit: Int) -> [[String]: Int]? {
    struct Node: Hashable {
      let configuration: Set<String>
      let history: [String: [String]]
      let running: Bool
    }
    let events = Set(chart.transitions.compactMap(\.event).filter { !$0.hasPrefix("done.") })
    /// Every outcome of one step from `node` (`nil`: the start).
    func outcomes(_ node: Node?, _ event: String?) -> [Node] {
      var pending: [[Bool]] = [[]]
      var found: [Node] = []
      while let planned = pending.popLast() {
        let oracle = AppendixDOracle(chart)
        if let node { oracle.restore(configuration: node.configuration, history: node.history, running: node.running) }
        var answers: [Bool] = []
        oracle.guardAnswer = { _ in
          let answer = answers.count < planned.count ? planned[answers.count] : true
          answers.append(answer)
          return answer
        }
        if let event { oracle.send(event) } else { oracle.start() }
        for position in planned.count..<answers.count { pending.append(Array(answers[..<position]) + [false]) }
        found.append(Node(configuration: oracle.configuration, history: oracle.history, running: oracle.running))
      }
      return found
    }
    var distance: [Node: Int] = [:]
    var queue: [Node] = []
    for node in outcomes(nil, nil) where distance[node] == nil {
      distance[node] = 0
      queue.append(node)
    }
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      guard node.running else { continue }
      for event in events.sorted() {
        for next in outcomes(node, event) where distance[next] == nil {
          distance[next] = distance[node]! + 1
          queue.append(next)
          if queue.count > limit { return nil }
        }
      }
    }
    var result: [[String]: Int] = [:]
    for (node, steps) in distance where node.running {
      let leaves = node.configuration.filter { chart.nodes[$0].map { [.atomic, .final].contains($0.kind) } ?? false }
        .map { chart.path($0) }.sorted()
      result[leaves] = min(result[leaves] ?? .max, steps)
    }
    return result
  }

  /// The chart as the differential test declares it, with guards that answer the plan.
  static func definition(_ chart: RandomChart, _ plan: GuardPlan) -> StateMachineDefinition<DynamicStateMachine> {
    DifferentialTests.definition(chart, log: TestRecorder(), step: TestRecorder(), plan: plan)
  }
}
