import Foundation
import StateMachines
import Testing

// Definitions built from run-time data: every feature is usable from a dynamically built
// definition. No macro sees these names, so the runtime checks them: an invalid definition
// throws a typed `DefinitionError` from `init(validating:)` that names the culprit.

/// What the callbacks of a ``DynamicStateMachine`` definition write to and read from: they
/// receive only the machine, so the tests' flat-machine files capture one of these instead.
final class FlatTestProbe {
  /// What the callbacks did, in order.
  var log: [String] = []
  /// Conditions that guards read.
  var flags: Set<String> = []
  /// A counter for callbacks to bump.
  var count = 0
}

/// One row of a transition table read at run time.
typealias DynamicDefinitionRow = (event: String, from: String, to: String)

/// Parses `"event: from -> to"` lines, as a definition loaded from a file would be.
func dynamicDefinitionRows(_ text: String) -> [DynamicDefinitionRow] {
  text.split(separator: "\n").compactMap { line -> DynamicDefinitionRow? in
    let parts = line.split(separator: ":", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    let ends = parts[1].components(separatedBy: "->").map { $0.trimmingCharacters(in: .whitespaces) }
    guard ends.count == 2 else { return nil }
    return (parts[0].trimmingCharacters(in: .whitespaces), ends[0], ends[1])
  }
}

/// A turnstile's table, as text.
private let dynamicTurnstileText = """
  coin: locked -> unlocked
  push: unlocked -> locked
  kick: locked -> broken
  fix: broken -> locked
  """

/// A turnstile built in loops from the parsed table, with a guard on `fix` (the `fixable` flag),
/// an entry action on the state `kick` leads to and an `after` callback on `coin`.
private func makeDynamicTurnstile(_ probe: FlatTestProbe) throws(DefinitionError) -> DynamicStateMachine {
  let rows = dynamicDefinitionRows(dynamicTurnstileText)
  return try DynamicStateMachine(validating: { sm in
    for row in rows {
      sm.addState(row.from)
      sm.addState(row.to)
    }
    for row in rows {
      if row.event == "fix" {
        sm.when(row.event, transitionFrom: row.from, to: row.to)
          .guarded { _ in probe.flags.contains("fixable") }
      } else {
        sm.when(row.event, transitionFrom: row.from, to: row.to)
      }
    }
    sm.onEntry(rows[2].to) { machine, transition in
      probe.log.append("entry \(machine.state) via \(transition.event)")
    }
    sm.after(rows[0].event) { _ in probe.count += 1 }
  })
}

@Suite("Dynamic definitions")
struct DynamicDefinitionTests {
  // MARK: Valid

  @Test("the table parser reads event, from and to")
  func parsesRows() {
    let rows = dynamicDefinitionRows(dynamicTurnstileText)
    #expect(rows.map(\.event) == ["coin", "push", "kick", "fix"])
    #expect(rows.map(\.from) == ["locked", "unlocked", "locked", "broken"])
    #expect(rows.map(\.to) == ["unlocked", "locked", "broken", "locked"])
  }

  @Test("a definition built from a parsed table, with a guard and an entry action, works by name")
  func turnstileFromTable() throws {
    let probe = FlatTestProbe()
    let turnstile = try makeDynamicTurnstile(probe)
    #expect(turnstile.stateMachineDefinition.definitionError == nil)
    #expect(turnstile.stateMachineDefinition.states == ["locked", "unlocked", "broken"])
    #expect(turnstile.stateMachineDefinition.events == ["coin", "push", "kick", "fix"])
    #expect(turnstile.state == "locked")
    #expect(turnstile.availableEvents == ["coin", "kick"])
    #expect(turnstile.fire("coin"))
    #expect(probe.count == 1)
    #expect(!turnstile.fire("coin"))
    #expect(turnstile.fire("push"))
    #expect(turnstile.fire("kick"))
    #expect(turnstile.isInState("broken"))
    #expect(probe.log == ["entry broken via kick"])
    #expect(!turnstile.can("fix"))
    #expect(stateMachineError { try turnstile.fireOrThrow("fix") } == .guardsFailed(event: "fix", state: "broken"))
    probe.flags.insert("fixable")
    #expect(turnstile.can("fix"))
    #expect(turnstile.fire("fix"))
    #expect(turnstile.state == "locked")
  }

  @Test("machines sharing a runtime definition each keep their own state")
  func sharedDefinition() throws {
    let rows = dynamicDefinitionRows(
      """
      submit: draft -> review
      approve: review -> published
      reject: review -> draft
      """)
    let probe = FlatTestProbe()
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      for row in rows {
        sm.addState(row.from)
        sm.addState(row.to)
        if row.event == "approve" {
          sm.when(row.event, transitionFrom: row.from, to: row.to).guarded { _ in probe.count >= 2 }
        } else {
          sm.when(row.event, transitionFrom: row.from, to: row.to)
        }
      }
      sm.onEntry(rows[1].to) { _, transition in probe.log.append("entry \(transition.to) via \(transition.event)") }
      sm.before(rows[1].event) { machine in probe.log.append("before \(machine.state)") }
    })
    #expect(definition.states == ["draft", "review", "published"])
    #expect(definition.initialState == "draft")

    let first = DynamicStateMachine(definition)
    let second = DynamicStateMachine(definition)
    #expect(first.fire("submit"))
    #expect(!first.fire("approve"))
    #expect(stateMachineError { try first.fireOrThrow("approve") } == .guardsFailed(event: "approve", state: "review"))
    probe.count = 2
    #expect(first.can("approve"))
    #expect(first.fire("approve"))
    #expect(first.state == "published")
    #expect(probe.log == ["before review", "entry published via approve"])
    #expect(second.state == "draft")
    #expect(!second.can("approve"))
  }

  // MARK: Invalid

  @Test("a row naming an undeclared target state throws undeclaredState")
  func undeclaredTargetInRow() {
    let rows = dynamicDefinitionRows("go: a -> b\nwarp: a -> nowhere")
    let error = definitionError {
      _ = try DynamicStateMachine(validating: { sm in
        sm.addState("a")
        sm.addState("b")
        for row in rows { sm.when(row.event, transitionFrom: row.from, to: row.to) }
      })
    }
    #expect(error == .undeclaredState("nowhere", context: "transition 'warp'"))
    #expect(error?.description == "transition 'warp' names undeclared state 'nowhere'")
  }

  @Test("a row naming an undeclared source state throws undeclaredState")
  func undeclaredSourceInRow() {
    let rows = dynamicDefinitionRows("go: somewhere -> b")
    let error = definitionError {
      _ = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
        sm.addState("a")
        sm.addState("b")
        for row in rows { sm.when(row.event, transitionFrom: row.from, to: row.to) }
      })
    }
    #expect(error == .undeclaredState("somewhere", context: "transition 'go'"))
  }

  @Test("onEntry and onExit of an undeclared state throw undeclaredState")
  func undeclaredStateInEntryOrExit() {
    let ghost = dynamicDefinitionRows("go: a -> ghost")[0].to
    let entry = definitionError {
      _ = try DynamicStateMachine(validating: { sm in
        sm.addState("a")
        sm.addState("b")
        sm.when("go", transitionFrom: "a", to: "b")
        sm.onEntry(ghost) { _ in }
      })
    }
    #expect(entry == .undeclaredState("ghost", context: "onEntry('ghost')"))

    let exit = definitionError {
      _ = try DynamicStateMachine(validating: { sm in
        sm.addState("a")
        sm.addState("b")
        sm.when("go", transitionFrom: "a", to: "b")
        sm.onExit(ghost) { _ in }
      })
    }
    #expect(exit == .undeclaredState("ghost", context: "onExit('ghost')"))
  }

  @Test("before and after of an undeclared event throw undeclaredEvent")
  func undeclaredEventInCallbacks() {
    let names = dynamicDefinitionRows("nope: a -> b\nnada: a -> b").map(\.event)
    let before = definitionError {
      _ = try DynamicStateMachine(validating: { sm in
        sm.addState("a")
        sm.addState("b")
        sm.when("go", transitionFrom: "a", to: "b")
        sm.before(names[0]) { _ in }
      })
    }
    #expect(before == .undeclaredEvent("nope", context: "before('nope')"))

    let after = definitionError {
      _ = try DynamicStateMachine(validating: { sm in
        sm.addState("a")
        sm.addState("b")
        sm.when("go", transitionFrom: "a", to: "b")
        sm.after(names[1]) { _, _ in }
      })
    }
    #expect(after == .undeclaredEvent("nada", context: "after('nada')"))
  }

  @Test("a negative timeout throws invalidValue naming the transition")
  func negativeTimeout() {
    let seconds = Int("-1") ?? 0
    let error = definitionError {
      _ = try DynamicStateMachine(validating: { sm in
        sm.addState("a")
        sm.addState("b")
        sm.when("expire", transitionFrom: "a", to: "b", after: .seconds(seconds))
      })
    }
    #expect(error == .invalidValue("\(Duration.seconds(-1))", context: "the timeout of transition 'expire'"))
    #expect(error?.description == "the timeout of transition 'expire' has invalid value -1.0 seconds")
  }

  @Test("a machine of an invalid runtime definition rejects every event")
  func invalidDefinitionMachine() {
    let probe = FlatTestProbe()
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      for row in dynamicDefinitionRows("go: a -> b\nwarp: b -> nowhere") {
        sm.addState(row.from)
        sm.when(row.event, transitionFrom: row.from, to: row.to)
      }
      sm.onEntry("b") { _ in probe.log.append("entry b") }
    }
    let expected = DefinitionError.undeclaredState("nowhere", context: "transition 'warp'")
    #expect(definition.definitionError == expected)
    let machine = DynamicStateMachine(definition)
    #expect(machine.state == "a")
    #expect(!machine.fire("go"))
    #expect(!machine.can("go"))
    #expect(machine.availableEvents.isEmpty)
    #expect(stateMachineError { try machine.fireOrThrow("go") } == .invalidDefinition(expected))
    #expect(machine.state == "a")
    #expect(probe.log.isEmpty)
  }
}
