import Foundation
import Testing

import StateMachines

@StateMachine
final class LoggedTurnstile {
  static let lines = TestRecorder()
  var coins = 0
  static let stateMachine = StateMachineDefinition<LoggedTurnstile> { sm in
    sm.log = StateMachineLog { LoggedTurnstile.lines.append($0) }
    sm.addState("locked")
    sm.addState("unlocked")
    sm.when("coin", transitionFrom: "locked", to: "unlocked").guarded { $0.coins > 0 }
    sm.when("push", transitionFrom: "unlocked", to: "locked")
    sm.onExit("locked") { _ in }
    sm.onEntry("unlocked") { _ in }
  }
}

@Suite struct VerboseLogTests {
  @Test func theTraceNamesEventsGuardsExitEntryTransitionsAndTimings() {
    let turnstile = LoggedTurnstile()
    #expect(!turnstile.coin())
    turnstile.coins = 1
    #expect(turnstile.coin())
    let lines = LoggedTurnstile.lines.lines
    let expected = [
      "[LoggedTurnstile] event 'coin' in state 'locked'",
      "[LoggedTurnstile] guard of 'coin' to 'unlocked': false",
      "[LoggedTurnstile] rejected: every guard of event 'coin' failed in state 'locked'",
      "[LoggedTurnstile] event 'coin' in state 'locked'",
      "[LoggedTurnstile] guard of 'coin' to 'unlocked': true",
      "[LoggedTurnstile] exit 'locked'",
      "[LoggedTurnstile] transition 'locked' -> 'unlocked' on 'coin'",
      "[LoggedTurnstile] entry 'unlocked'",
    ]
    let withoutTimings = lines.filter { !$0.contains(" took ") }
    #expect(withoutTimings == expected)
    #expect(lines.filter { $0.hasPrefix("[LoggedTurnstile] step 'coin' took ") }.count == 2)
  }

  @Test func verboseWritesToStandardErrorByDefault() throws {
    #expect(VerboseProbe.stateMachine.definitionError == nil)
    let probe = VerboseProbe()
    var accepted = false
    let captured = try StandardErrorCapture.capture { accepted = probe.flip() }
    #expect(accepted)
    #expect(probe.isOn)
    // Only this machine's lines: the test runner writes to standard error too.
    let lines = captured.split(separator: "\n").map(String.init).filter { $0.hasPrefix("[VerboseProbe] ") }
    #expect(lines.filter { !$0.contains(" took ") } == [
      "[VerboseProbe] event 'flip' in state 'off'",
      "[VerboseProbe] transition 'off' -> 'on' on 'flip'",
    ])
    #expect(lines.filter { $0.hasPrefix("[VerboseProbe] step 'flip' took ") }.count == 1)

    // Without `verbose`, the same event writes nothing.
    let quiet = QuietProbe()
    let nothing = try StandardErrorCapture.capture { accepted = quiet.flip() }
    #expect(accepted)
    #expect(quiet.isOn)
    #expect(!nothing.contains("[QuietProbe]"))
  }
}

/// A verbose machine whose trace goes to standard error; used only by
/// ``VerboseLogTests/verboseWritesToStandardErrorByDefault()``, so its lines are its own.
@StateMachine
final class VerboseProbe {
  static let stateMachine = StateMachineDefinition<VerboseProbe> { sm in
    sm.verbose = true
    sm.addState("off")
    sm.addState("on")
    sm.when("flip", transitionFrom: "off", to: "on")
  }
}

/// ``VerboseProbe`` without `verbose`.
@StateMachine
final class QuietProbe {
  static let stateMachine = StateMachineDefinition<QuietProbe> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("flip", transitionFrom: "off", to: "on")
  }
}

/// A minimal machine object for definitions built in tests.
@StateMachine
final class DynamicProbe {
  static let stateMachine = StateMachineDefinition<DynamicProbe> { sm in
    sm.addState("idle")
  }
}
