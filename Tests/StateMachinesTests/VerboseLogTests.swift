import Foundation
import Testing

import StateMachines

/// Collects log lines from any thread.
final class LogLines: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String] = []
  func append(_ line: String) { lock.withLock { storage.append(line) } }
  var lines: [String] { lock.withLock { storage } }
}

@StateMachine
final class LoggedTurnstile {
  static let lines = LogLines()
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

  @Test func verboseWritesToStandardErrorByDefault() {
    let definition = StateMachineDefinition<DynamicProbe> { sm in
      sm.verbose = true
      sm.addState("a")
    }
    #expect(definition.definitionError == nil)
    let silent = StateMachineDefinition<DynamicProbe> { sm in sm.addState("a") }
    #expect(silent.definitionError == nil)
  }
}

/// A minimal machine object for definitions built in tests.
@StateMachine
final class DynamicProbe {
  static let stateMachine = StateMachineDefinition<DynamicProbe> { sm in
    sm.addState("idle")
  }
}
