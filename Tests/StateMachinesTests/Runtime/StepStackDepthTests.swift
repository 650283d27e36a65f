@testable import StateMachines
import Foundation
import Testing

// The per-thread record of the steps a thread runs (`ThreadSteps`) keeps 16 machines in place and
// any deeper ones on the heap. A thread nested deeper than 16 machines (a callback of one
// `Sendable` machine fires the next, whose callback fires the next, …) keeps every rule of
// Semantics §Run to completion for each of them: an event its own callback fires is queued as its
// own, so the step limit counts it (Semantics "One run to completion takes at most a bounded
// number of steps"), and `can` inside a callback runs the guards (Semantics §Rules around the
// steps). Before, the 17th machine and deeper were not recorded: `can` there answered false
// without running a guard, and an event a machine fired on itself counted as another thread's, so
// a callback that kept firing its own machine ran forever instead of stopping at the limit.

/// A chain of `DynamicStateMachine`s (locked, so every step is recorded) on one definition:
/// `start` (idle → running) of link `i` runs its `after` callback, which asks `can("finish")`
/// (guarded), fires `finish` (running → done) on its own machine, then `start` on link `i + 1`
/// (so link `i` runs at step depth `i + 1`). In ping mode the last link fires `ping` (running →
/// running) instead of `finish`, and each `ping` fires the next, up to `pingAttempts`.
final class StepChain: @unchecked Sendable {
  /// What a link saw inside its `after("start")` callback.
  struct Link: Equatable, CustomStringConvertible {
    /// Whether the thread's record holds this link's step and every outer link's.
    var ownsOwnAndOuterSteps: Bool
    /// Whether the record holds no inner link (none is running yet).
    var ownsNoInnerStep: Bool
    var canFinish: Bool
    /// What firing its own event (`finish`, or `ping` in ping mode) returned: queued, `true`.
    var firedOwnEvent: Bool
    var stateAfterOwnEvent: String
    /// What firing `start` on the next link threw, and the next link's state once that returned.
    var nextError: StateMachineErrorCase?
    var nextState: String?

    var description: String {
      "owns \(ownsOwnAndOuterSteps)/\(ownsNoInnerStep) can \(canFinish) own \(firedOwnEvent) \(stateAfterOwnEvent) "
        + "next \(nextError.map { "\($0)" } ?? "-") \(nextState ?? "-")"
    }
  }

  // `@unchecked Sendable`: `machines` is set in the initializer, before any machine runs; every
  // other mutable field is read and written only under `lock`.
  private let lock = NSLock()
  private(set) var machines: [DynamicStateMachine] = []
  private var seen: [Link?]
  private var guardRunCounts: [Int]
  private var pingCounts: [Int]
  let pingAttempts: Int
  let log = TestRecorder()

  init(count: Int, maxSteps: Int = 10_000, pingAttempts: Int = 0) throws {
    seen = Array(repeating: nil, count: count)
    guardRunCounts = Array(repeating: 0, count: count)
    pingCounts = Array(repeating: 0, count: count)
    self.pingAttempts = pingAttempts
    let recorder = log
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      sm.maxStepsPerRunToCompletion = maxSteps
      sm.log = StateMachineLog { recorder.append($0) }
      sm.addState("idle")
      sm.addState("running")
      sm.addState("done")
      sm.when("start", transitionFrom: "idle", to: "running")
      sm.when("finish", transitionFrom: "running", to: "done").guarded { [unowned self] machine in
        self.tally(\.guardRunCounts, machine)
        return true
      }
      sm.when("ping", transitionFrom: "running", to: "running")
      sm.when("reset", transitionFrom: "done", to: "idle")
      sm.after("start") { [unowned self] machine in self.started(machine) }
      sm.after("ping") { [unowned self] machine in
        if self.tally(\.pingCounts, machine) < self.pingAttempts { machine.fire("ping") }
      }
    })
    machines = (0..<count).map { _ in DynamicStateMachine(definition) }
  }

  var links: [Link?] { lock.withLock { seen } }
  var guardRuns: [Int] { lock.withLock { guardRunCounts } }
  var pings: [Int] { lock.withLock { pingCounts } }
  var states: [String] { machines.map(\.state) }

  private func position(of machine: DynamicStateMachine) -> Int {
    machines.firstIndex { $0 === machine }!
  }

  /// Adds one to `machine`'s count in `counts`; returns the new count.
  @discardableResult
  private func tally(_ counts: ReferenceWritableKeyPath<StepChain, [Int]>, _ machine: DynamicStateMachine) -> Int {
    let index = position(of: machine)
    return lock.withLock {
      self[keyPath: counts][index] += 1
      return self[keyPath: counts][index]
    }
  }

  private func started(_ machine: DynamicStateMachine) {
    let index = position(of: machine)
    let owned = machines.map { ThreadSteps.owns($0._$stateMachineLock!) }
    let isLast = index == machines.count - 1
    let canFinish = machine.can("finish")
    let fired = machine.fire(isLast && pingAttempts > 0 ? "ping" : "finish")
    var link = Link(
      ownsOwnAndOuterSteps: owned[...index].allSatisfy { $0 }, ownsNoInnerStep: !owned[(index + 1)...].contains(true),
      canFinish: canFinish, firedOwnEvent: fired, stateAfterOwnEvent: machine.state)
    if !isLast {
      let next = machines[index + 1]
      link.nextError = stateMachineError { try next.fireOrThrow("start") }
      link.nextState = next.state
    }
    lock.withLock { seen[index] = link }
  }
}

@Suite("Step stack depth", .timeLimit(.minutes(1)))
struct StepStackDepthTests {
  /// What every link of a plain chain of `count` sees: its own and the outer steps recorded, the
  /// guard run by `can`, its own `finish` queued (it is still `running`), and the next link's
  /// whole run to completion over (`done`) when `start` on it returns.
  static func plainLinks(_ count: Int) -> [StepChain.Link?] {
    (0..<count).map { index in
      StepChain.Link(
        ownsOwnAndOuterSteps: true, ownsNoInnerStep: true, canFinish: true, firedOwnEvent: true,
        stateAfterOwnEvent: "running", nextError: nil, nextState: index == count - 1 ? nil : "done")
    }
  }

  @Test(
    "a chain of Sendable machines, each firing the next from its after callback, keeps the rules at every depth",
    arguments: [1, 16, 17, 18, 40])
  func chainOfDistinctMachines(count: Int) throws {
    let chain = try StepChain(count: count)
    // Twice on the same thread: the record unwinds after the first, and the second sees the same.
    for round in 1...2 {
      #expect(!ThreadSteps.isInsideStep)
      try chain.machines[0].fireOrThrow("start")
      #expect(!ThreadSteps.isInsideStep, "round \(round)")
      #expect(chain.links == Self.plainLinks(count), "round \(round)")
      // The guard of `finish` ran twice per link: in `can`, and in the queued `finish` itself.
      #expect(chain.guardRuns == Array(repeating: 2 * round, count: count), "round \(round)")
      #expect(chain.states == Array(repeating: "done", count: count), "round \(round)")
      // Top-level fires take each machine at once (not queued: the state changes before they return).
      for machine in chain.machines {
        #expect(machine.fire("reset"))
        #expect(machine.state == "idle")
      }
    }
  }

  @Test(
    "the step limit holds for a machine nested at any depth that keeps firing itself",
    arguments: [1, 16, 17, 18, 40])
  func stepLimitAtDepth(count: Int) throws {
    // Ping mode: the last link fires `ping` on itself up to 50 times; the limit is 10 steps
    // (`start` and 9 pings), so the 10th ping is dropped and `start` on it fails with the limit.
    let chain = try StepChain(count: count, maxSteps: 10, pingAttempts: 50)
    let outer = stateMachineError { try chain.machines[0].fireOrThrow("start") }
    #expect(!ThreadSteps.isInsideStep)
    // Every link sees what it sees in a plain chain, except that `start` on the last one fails.
    var expected = Self.plainLinks(count)
    if count > 1 {
      expected[count - 2]!.nextError = .runToCompletionLimit(event: "start", steps: 10)
      expected[count - 2]!.nextState = "running"
    }
    #expect(outer == (count == 1 ? .runToCompletionLimit(event: "start", steps: 10) : nil))
    #expect(chain.links == expected)
    #expect(chain.pings == Array(repeating: 0, count: count - 1) + [9])
    // The last link only asked `can`; every other link also took `finish`.
    #expect(chain.guardRuns == Array(repeating: 2, count: count - 1) + [1])
    #expect(chain.states == Array(repeating: "done", count: count - 1) + ["running"])
    #expect(
      chain.log.lines.filter {
        $0.contains("stopped after 10 steps") && $0.contains("dropped 1 queued event(s), the first 'ping'")
      }.count == 1)
    // The thread fires normally afterwards: the last link is no longer busy and takes `finish` now.
    #expect(chain.machines[count - 1].fire("finish"))
    #expect(chain.machines[count - 1].state == "done")
  }

  @Test("re-entrant fires on one Sendable machine are queued, never nested, and count toward the limit")
  func reentrantFiresOnOneMachine() throws {
    // The same depths on one object take another path: each `go` fired from the `after` callback
    // of `go` is queued and runs once the current step is over (Semantics §Run to completion), so
    // the thread's record stays one step deep however many fire. The callbacks fire 40 in all;
    // a run to completion stops after 17 steps (the 18th `go` is dropped).
    let lines = TestRecorder()
    let machine = try DynamicStateMachine(validating: { sm in
      sm.maxStepsPerRunToCompletion = 17
      sm.log = StateMachineLog { lines.append("log: \($0)") }
      sm.addState("a")
      sm.when("go", transitionFrom: "a", to: "a")
      sm.after("go") { machine in
        lines.increment("go")
        let go = lines["go"]
        lines.append("begin \(go)")
        if go < 40 {
          let queued = machine.fire("go")
          lines.append("fired \(queued) owned \(ThreadSteps.owns(machine._$stateMachineLock!))")
        }
        lines.append("end \(go)")
      }
    })
    #expect(stateMachineError { try machine.fireOrThrow("go") } == .runToCompletionLimit(event: "go", steps: 17))
    #expect(!ThreadSteps.isInsideStep)
    #expect(lines["go"] == 17)
    let steps = lines.lines.filter { !$0.hasPrefix("log: ") }
    #expect(steps == (1...17).flatMap { ["begin \($0)", "fired true owned true", "end \($0)"] })
    #expect(lines.lines.filter { $0.contains("stopped after 17 steps") && $0.contains("dropped 1") }.count == 1)
    #expect(machine.state == "a")
    // Idle again: each top-level fire runs a new run to completion of its own, 17 more steps
    // (go 18 to 34), then the last 6 (go 35 to 40, which fires nothing), within the limit.
    #expect(stateMachineError { try machine.fireOrThrow("go") } == .runToCompletionLimit(event: "go", steps: 17))
    #expect(lines["go"] == 34)
    #expect(stateMachineError { try machine.fireOrThrow("go") } == nil)
    #expect(lines["go"] == 40)
    #expect(!ThreadSteps.isInsideStep)
  }
}
