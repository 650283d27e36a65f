import Foundation
import Testing

@testable import StateMachines

/// A machine whose `loading` may be passed through (its entry action asks for `skip`), whose
/// input may throw, and whose work sleeps on a manual clock.
@MainActor
@StateMachine
final class InvokeLoader {
  let clock = ManualClock()
  var skips = false
  var inputFails = false
  var result: Int?
  var error: (any Error)?
  static let stateMachine = StateMachineDefinition<InvokeLoader> { sm in
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("done")
    sm.addState("failed")
    sm.when("load", transitionFrom: "idle", to: "loading")
    sm.when("skip", transitionFrom: "loading", to: "idle")
    sm.onEntry("loading") { loader, _ in loader.skips ? .fire("skip") : nil }
    sm.invoke("sleep", in: "loading", input: { loader, _ in
      if loader.inputFails { throw LoaderInputError() }
      return loader.clock
    }) { context in
      try await context.input.sleep(for: .seconds(5))
      return 5
    }
    sm.whenInvokeDone("sleep", transitionTo: "done").action { loader, transition in
      loader.result = transition.payload(as: Int.self)
    }
    sm.whenInvokeFailed("sleep", transitionTo: "failed").action { loader, transition in
      loader.error = transition.payload as? any Error
    }
  }
}

struct LoaderInputError: Error {}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct InvokeSemanticsTests {
  @Test("I2: a state left within the macrostep that entered it never starts its work")
  func passedThroughStateStartsNothing() async {
    let loader = InvokeLoader()
    loader.skips = true
    #expect(loader.fire("load"))
    #expect(loader.state == "idle")
    #expect(loader.activeInvocations.isEmpty)
    await loader.waitForInvocations()
    #expect(loader.invocationStatistics.started == 0)
  }

  @Test("I3: a throwing input starts no work and its error transition runs before fire returns")
  func throwingInputRaisesInternalError() {
    let loader = InvokeLoader()
    loader.inputFails = true
    #expect(loader.fire("load"))
    #expect(loader.state == "failed")
    #expect(loader.error is LoaderInputError)
    #expect(loader.invocationStatistics.started == 0)
  }

  @Test("I16: work sleeping on the manual clock finishes when the clock gets there")
  func manualClockDrivesWork() async {
    let loader = InvokeLoader()
    #expect(loader.fire("load"))
    await eventually { loader.clock.sleeperCount == 1 }
    await loader.clock.advance(by: .seconds(4))
    #expect(loader.state == "loading")
    await loader.clock.advance(by: .seconds(1))
    await loader.waitForInvocations()
    #expect(loader.state == "done")
    #expect(loader.result == 5)
  }

  @Test("I8: leaving the state cancels the work, which sees the cancellation")
  func exitCancelsWork() async {
    let loader = InvokeLoader()
    #expect(loader.fire("load"))
    await eventually { loader.clock.sleeperCount == 1 }
    #expect(loader.fire("skip"))
    await loader.waitForInvocations()
    // The sleep threw CancellationError; the error result was dropped, not taken.
    #expect(loader.state == "idle")
    #expect(loader.error == nil)
    #expect(loader.clock.sleeperCount == 0)
    #expect(loader.invocationStatistics == InvocationStatistics(started: 1, finished: 1, delivered: 0, dropped: 1))
  }

  @Test("I9: the work never keeps the model alive, and its object's deinit cancels it")
  func deinitCancels() async {
    weak var weakLoader: InvokeLoader?
    let clock: ManualClock
    do {
      let loader = InvokeLoader()
      clock = loader.clock
      weakLoader = loader
      #expect(loader.fire("load"))
      await eventually { clock.sleeperCount == 1 }
    }
    #expect(weakLoader == nil)
    // The extras' deinit cancelled the task: its sleep ends.
    await eventually { clock.sleeperCount == 0 }
  }
}

/// Invokes in a statechart: a compound parent's work, regions in document order.
@MainActor
@StateMachine
final class InvokeChart {
  let order = TestRecorder()
  static let stateMachine = StateMachineDefinition<InvokeChart> { sm in
    // The work sleeps until it is cancelled: nothing advances this clock.
    sm.clock = ManualClock()
    sm.addState("off")
    sm.addState("on") { on in
      on.addState("a")
      on.addState("b")
    }
    sm.addParallelState("both") { both in
      both.addState("left") { $0.addState("l1") }
      both.addState("right") { $0.addState("r1") }
    }
    sm.when("start", transitionFrom: "off", to: "on")
    sm.when("next", transitionFrom: "a", to: "b")
    sm.when("split", transitionFrom: "on", to: "both")
    for (id, state) in [("parent", "on"), ("child", "a"), ("right", "r1"), ("left", "l1")] {
      sm.invoke(id, in: state, input: { chart, _ in
        chart.order.append(id)
        return id
      }) { context in
        try await context.clock.sleep(for: .seconds(3600))
        return context.input
      }
    }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct InvokeStatechartTests {
  @Test("I2: states entered in one macrostep start in document order; I8: an active parent keeps its work")
  func documentOrderAndParentKeepsWork() async {
    let chart = InvokeChart()
    #expect(chart.fire("start"))
    #expect(chart.order.lines == ["parent", "child"])
    let parent = chart.activeInvocations.first { $0.id == "parent" }
    #expect(chart.fire("next"))
    #expect(chart.activeInvocations.map(\.id) == ["parent"])
    #expect(chart.activeInvocations.first?.generation == parent?.generation)
    #expect(chart.fire("split"))
    // Regions start in document order (left before right), whatever the declaration order.
    #expect(chart.order.lines == ["parent", "child", "left", "right"])
    #expect(Set(chart.activeInvocations.map(\.id)) == ["left", "right"])
    #expect(chart.activeInvocations.map(\.state).sorted() == ["both/left/l1", "both/right/r1"])
    try? chart.stopStateMachine()
    await chart.waitForInvocations()
    #expect(chart.invocationStatistics.started == 4)
    #expect(chart.invocationStatistics.finished == 4)
    #expect(chart.invocationStatistics.delivered == 0)
  }
}

/// Internal events, posts and a result in one run (Invoke I2, I12).
@MainActor
@StateMachine
final class InvokeSequencer {
  let log = TestRecorder()
  static let stateMachine = StateMachineDefinition<InvokeSequencer> { sm in
    sm.addState("idle")
    sm.addState("a")
    sm.addState("b")
    sm.addState("done")
    sm.when("go", transitionFrom: "idle", to: "a")
    sm.when("next", transitionFrom: "a", to: "b")
    sm.when("posted", transitionFrom: "b", to: "b", internal: true).action { $0.log.append("posted") }
    sm.after("go") { sequencer in
      sequencer.post("posted")
      sequencer.fire("next")
    }
    sm.onEntry("b") { $0.log.append("enter b") }
    sm.invoke("work", in: "b", input: { sequencer, _ in
      sequencer.log.append("input")
      return sequencer.log
    }) { _ in "result" }
    sm.whenInvokeDone("work", transitionTo: "done").action { $0.log.append("done") }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct InvokeRunToCompletionTests {
  @Test("I2, I12: work starts once the internal events ran, before the posted one; its result comes after the run")
  func resultAfterInternalAndPostedEvents() async {
    let sequencer = InvokeSequencer()
    #expect(sequencer.fire("go"))
    #expect(sequencer.state == "b")
    #expect(sequencer.log.lines == ["enter b", "input", "posted"])
    await sequencer.waitForInvocations()
    #expect(sequencer.log.lines == ["enter b", "input", "posted", "done"])
    #expect(sequencer.state == "done")
  }
}

/// Termination and a seeded schedule of exits, re-entries and releases (Invoke I7, I9).
@MainActor
@Suite(.timeLimit(.minutes(2)))
struct InvokeScheduleTests {
  @Test("I9: termination cancels the work and delivers nothing")
  func terminationCancels() async {
    let clock = ManualClock()
    let machine = DynamicStateMachine(
      StateMachineDefinition { sm in
        sm.clock = clock
        sm.addState("idle")
        sm.addState("loading")
        sm.addState("ready")
        sm.when("load", transitionFrom: "idle", to: "loading")
        sm.die(on: "crash", from: ["loading"])
        sm.invoke("wait", in: "loading") { context in try await context.clock.sleep(for: .seconds(3600)) }
        sm.whenInvokeDone("wait", transitionTo: "ready")
      })
    #expect(machine.fire("load"))
    #expect(machine.activeInvocations.count == 1)
    await eventually { clock.sleeperCount == 1 }
    #expect(machine.fire("crash"))
    #expect(machine.isStateMachineTerminated)
    #expect(machine.activeInvocations.isEmpty)
    await machine.waitForInvocations()
    #expect(clock.sleeperCount == 0)
    #expect(machine.invocationStatistics == InvocationStatistics(started: 1, finished: 1, delivered: 0, dropped: 1))
  }

  @Test("I7: 10,000 seeded steps of exit, re-entry and release: only the current entry's result is ever taken")
  func seededSchedule() async {
    let profile = InvokeProfile()
    var random = SeededGenerator(seed: 2026)
    var started: [UInt64] = []
    var released: Set<UInt64> = []
    for _ in 0..<10_000 {
      switch Int.random(in: 0..<4, using: &random) {
      case 0:
        profile.userID = "\(started.count)"
        profile.fire("load")
      case 1:
        profile.fire("cancel")
      case 2:
        profile.fire("reload")
      default:
        let unreleased = started.filter { !released.contains($0) }
        guard let generation = unreleased.randomElement(using: &random) else { continue }
        let current = profile.activeInvocations.first?.generation
        let before = profile.invocationStatistics
        released.insert(generation)
        profile.gates.open(generation)
        await eventually { profile.invocationStatistics.finished == before.finished + 1 }
        let after = profile.invocationStatistics
        // The current generation's result is taken; any other is dropped.
        if generation == current {
          #expect(after.delivered == before.delivered + 1)
          #expect(profile.state == "ready")
        } else {
          #expect(after.dropped == before.dropped + 1)
        }
      }
      if let generation = profile.activeInvocations.first?.generation, !started.contains(generation) {
        started.append(generation)
      }
    }
    for generation in started where !released.contains(generation) { profile.gates.open(generation) }
    await profile.waitForInvocations()
    let statistics = profile.invocationStatistics
    #expect(statistics.started == started.count)
    #expect(statistics.finished == statistics.started)
    #expect(statistics.delivered + statistics.dropped == statistics.started)
  }
}
