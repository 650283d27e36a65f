import StateMachines
import Testing

// Throwing callbacks (Semantics steps 3 and 8): a throw before the state
// is written (guard, before, exit, action) changes nothing; a throw after it (entry, after)
// leaves the new state standing. Either way the error reaches `fireOrThrow`'s caller.

/// The error the callbacks throw.
enum ThrowingFailure: Error, Equatable {
  case boom(String)
}

/// Where ``ThrowingPipe`` throws.
enum ThrowingPoint: String, CaseIterable, Sendable {
  case guardBody = "guard"
  case before1 = "before#1"
  case before2 = "before#2"
  case exit
  case action
  case entry
  case after1 = "after#1"
  case after2 = "after#2"

  /// Whether a throw here happens before the state is written.
  var isBeforeStateWritten: Bool {
    switch self {
    case .guardBody, .before1, .before2, .exit, .action: return true
    case .entry, .after1, .after2: return false
    }
  }
}

/// `start` (idle → running) with a guard, an action and two callbacks of most kinds. Each writes
/// its name to ``log`` and throws if it is ``failAt``.
@StateMachine
final class ThrowingPipe {
  var failAt: ThrowingPoint?
  var log: [String] = []
  var observed: [String] = []

  init(failAt: ThrowingPoint?) {
    self.failAt = failAt
  }

  func run(_ point: ThrowingPoint) throws {
    log.append(point.rawValue)
    if point == failAt { throw ThrowingFailure.boom(point.rawValue) }
  }

  static let stateMachine = StateMachineDefinition<ThrowingPipe> { sm in
    sm.addState("idle")
    sm.addState("running")
    sm.when("start", transitionFrom: "idle", to: "running").guarded { pipe in
      try pipe.run(.guardBody)
      return true
    }.action { try $0.run(.action) }
    sm.when("stop", transitionFrom: "running", to: "idle")
    sm.before("start") { try $0.run(.before1) }
    sm.before("start") { try $0.run(.before2) }
    sm.onExit("idle") { try $0.run(.exit) }
    sm.onEntry("running") { try $0.run(.entry) }
    sm.after("start") { try $0.run(.after1) }
    sm.after("start") { try $0.run(.after2) }
    sm.didTransition { pipe, transition in pipe.observed.append("\(transition.from)->\(transition.to)") }
  }
}

/// Names from arrays, as a definition loaded at run time has them.
private let throwingNames = (states: ["closed", "open"], event: "open")

/// A valve built at run time whose `before` callback throws while the `jammed` flag is set.
private func makeThrowingValve(_ probe: FlatTestProbe) throws(DefinitionError) -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for state in throwingNames.states { sm.addState(state) }
    sm.when(throwingNames.event, transitionFrom: throwingNames.states[0], to: throwingNames.states[1])
    sm.before(throwingNames.event) { _ in
      if probe.flags.contains("jammed") { throw ThrowingFailure.boom("jammed") }
    }
    sm.after(throwingNames.event) { _ in probe.count += 1 }
  })
}

/// The names every callback of a successful `start` writes, in order.
private let throwingFullRun: [String] = ThrowingPoint.allCases.map(\.rawValue)

@Suite("Throwing callbacks")
struct ThrowingCallbackTests {
  @Test("without a throw every callback runs once, in order")
  func noThrow() {
    let pipe = ThrowingPipe(failAt: nil)
    #expect(pipe.start())
    #expect(pipe.state == "running")
    #expect(pipe.log == ["guard", "before#1", "before#2", "exit", "action", "entry", "after#1", "after#2"])
    #expect(pipe.observed == ["idle->running"])
  }

  @Test(
    "a throw before the state is written changes nothing and stops the step",
    arguments: ThrowingPoint.allCases.filter(\.isBeforeStateWritten))
  func throwBeforeStateWritten(at point: ThrowingPoint) {
    let pipe = ThrowingPipe(failAt: point)
    #expect(!pipe.start())
    #expect(pipe.state == "idle")
    #expect(pipe.isIdle)
    // Nothing after the throwing callback ran, observers included.
    let expectedLog = Array(throwingFullRun.prefix { $0 != point.rawValue }) + [point.rawValue]
    #expect(pipe.log == expectedLog)
    #expect(pipe.observed.isEmpty)
  }

  @Test(
    "fireOrThrow reports a throw before the state is written as callbackFailed, nothing changed",
    arguments: ThrowingPoint.allCases.filter(\.isBeforeStateWritten))
  func throwBeforeStateWrittenThrows(at point: ThrowingPoint) {
    let pipe = ThrowingPipe(failAt: point)
    let error = stateMachineError { try pipe.fireOrThrow("start") }
    #expect(error == .callbackFailed(event: "start", transitionHappened: false))
    #expect(pipe.state == "idle")
    #expect(pipe.observed.isEmpty)
  }

  @Test(
    "a throw after the state is written leaves the new state; observers are still told",
    arguments: ThrowingPoint.allCases.filter { !$0.isBeforeStateWritten })
  func throwAfterStateWritten(at point: ThrowingPoint) {
    let pipe = ThrowingPipe(failAt: point)
    #expect(pipe.start())
    #expect(pipe.state == "running")
    #expect(pipe.isRunning)
    let expectedLog = Array(throwingFullRun.prefix { $0 != point.rawValue }) + [point.rawValue]
    #expect(pipe.log == expectedLog)
    #expect(pipe.observed == ["idle->running"])
  }

  @Test(
    "fireOrThrow reports a throw after the state is written as callbackFailed, transition happened",
    arguments: ThrowingPoint.allCases.filter { !$0.isBeforeStateWritten })
  func throwAfterStateWrittenThrows(at point: ThrowingPoint) {
    let pipe = ThrowingPipe(failAt: point)
    let error = stateMachineError { try pipe.fireOrThrow("start") }
    #expect(error == .callbackFailed(event: "start", transitionHappened: true))
    #expect(pipe.state == "running")
    #expect(pipe.observed == ["idle->running"])
  }

  @Test("the callbackFailed error carries the thrown error", arguments: ThrowingPoint.allCases)
  func underlyingError(at point: ThrowingPoint) {
    let pipe = ThrowingPipe(failAt: point)
    do {
      try pipe.fireOrThrow("start")
      Issue.record("fireOrThrow did not throw")
    } catch {
      guard case .callbackFailed(let event, let happened, let underlying) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(event == "start")
      #expect(happened == !point.isBeforeStateWritten)
      #expect(underlying as? ThrowingFailure == .boom(point.rawValue))
    }
  }

  @Test("after a failed step the machine takes events again", arguments: ThrowingPoint.allCases)
  func machineUsableAfterThrow(at point: ThrowingPoint) {
    let pipe = ThrowingPipe(failAt: point)
    _ = pipe.start()
    pipe.failAt = nil
    if point.isBeforeStateWritten {
      #expect(pipe.start())
    } else {
      #expect(pipe.stop())
      #expect(pipe.start())
    }
    #expect(pipe.state == "running")
  }

  @Test("can is false when the guard throws, and nothing else runs")
  func canWithThrowingGuard() {
    let pipe = ThrowingPipe(failAt: .guardBody)
    #expect(!pipe.canStart)
    #expect(!pipe.can("start"))
    #expect(pipe.log == ["guard", "guard"])
    #expect(pipe.state == "idle")
  }

  @Test("a throwing before callback in a definition built at run time, fired by name")
  func dynamicThrowingBefore() throws {
    let probe = FlatTestProbe()
    probe.flags = ["jammed"]
    let valve = try makeThrowingValve(probe)
    #expect(!valve.fire("open"))
    #expect(valve.isInState("closed"))
    #expect(probe.count == 0)
    let error = stateMachineError { try valve.fireOrThrow("open") }
    #expect(error == .callbackFailed(event: "open", transitionHappened: false))
    probe.flags = []
    #expect(valve.fire("open"))
    #expect(valve.isInState("open"))
    #expect(probe.count == 1)
  }
}
