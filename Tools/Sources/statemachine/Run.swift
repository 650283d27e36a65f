import ArgumentParser
import Foundation
import StateMachines

/// `statemachine run FILE --events a,b,c`: the configuration after start and after each event.
/// Invoked work is a stub that succeeds at once with no payload: after each step the tool waits
/// for it, and prints a line for each result event the machine took (`done.invoke.<id>`).
struct Run: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Start a definition and fire events; print the configuration after each (guards pass, actions are listed, invoked work succeeds with null).")

  @Argument(help: "A definition file.")
  var file: String

  @Option(help: "Events to fire, separated by commas.")
  var events: String = ""

  @Flag(help: "Print JSON: one object per step.")
  var json = false

  /// Names logged as the machine runs (the actions of a step, the result events of invokes), in
  /// order; results arrive on other threads.
  ///
  /// `@unchecked Sendable`: `entries` is read and written only under `lock`.
  final class NameLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ name: String) { lock.withLock { entries.append(name) } }
    /// The names logged since the last call.
    func take() -> [String] {
      lock.withLock {
        defer { entries = [] }
        return entries
      }
    }
  }

  func run() async throws {
    let actions = NameLog()
    let results = NameLog()
    let gate = StubGate()
    let definition: StateMachineDefinition<DynamicStateMachine>
    do {
      definition = try DefinitionFile(file).load(
        actions: { actions.append($0) }, results: { results.append($0) },
        stub: { _ in
          await gate.pass()
          return nil
        })
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    let machine = DynamicStateMachine(definition)
    var steps: [Step] = []
    do {
      try machine.startStateMachine()
      steps.append(Step(event: nil, accepted: true, error: nil, actions: actions.take(), machine: machine))
    } catch {
      steps.append(Step(event: nil, accepted: false, error: "\(error)", actions: actions.take(), machine: machine))
    }
    steps += await invocationResults(machine, actions, results, gate)
    for event in events.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !event.isEmpty {
      do {
        try machine.fireOrThrow(event)
        steps.append(Step(event: event, accepted: true, error: nil, actions: actions.take(), machine: machine))
      } catch {
        steps.append(Step(event: event, accepted: false, error: "\(error)", actions: actions.take(), machine: machine))
      }
      steps += await invocationResults(machine, actions, results, gate)
    }
    for step in steps { print(json ? step.json : step.text) }
  }

  /// Waits for the invoked stubs, and returns a step for each result event the machine took
  /// meanwhile (several results show the configuration reached after the last one, which has the
  /// actions of them all).
  private func invocationResults(
    _ machine: DynamicStateMachine, _ actions: NameLog, _ results: NameLog, _ gate: StubGate
  ) async -> [Step] {
    // The stubs wait for the step to be printed first, so that the output does not depend on
    // how fast their tasks run.
    gate.open()
    await machine.waitForInvocations()
    gate.close()
    let events = results.take()
    return events.enumerated().map { index, event in
      Step(
        event: event, accepted: true, error: nil, actions: index == events.count - 1 ? actions.take() : [],
        machine: machine)
    }
  }

  /// Holds the stub work until ``open()``: the results of a step's invokes come after the step.
  ///
  /// `@unchecked Sendable`: `isOpen` and `waiters` are read and written only under `lock`.
  final class StubGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
      let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
        isOpen = true
        defer { waiters = [] }
        return waiters
      }
      for waiter in resumed { waiter.resume() }
    }

    func close() { lock.withLock { isOpen = false } }

    func pass() async {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let passes = lock.withLock {
          if !isOpen { waiters.append(continuation) }
          return isOpen
        }
        if passes { continuation.resume() }
      }
    }
  }

  /// One line of output.
  struct Step {
    let event: String?
    let accepted: Bool
    let error: String?
    let actions: [String]
    let state: String
    let active: [String]
    let terminated: Bool

    init(event: String?, accepted: Bool, error: String?, actions: [String], machine: DynamicStateMachine) {
      self.event = event
      self.accepted = accepted
      self.error = error
      self.actions = actions
      state = machine.state
      active = machine.activeStates
      terminated = machine.isStateMachineTerminated
    }

    var text: String {
      let head = event.map { "\($0) ->" } ?? "start:"
      var line = "\(head) \(state)"
      if !actions.isEmpty { line += "  actions: \(actions.joined(separator: ", "))" }
      if let error { line += "  (\(accepted ? "" : "rejected: ")\(error))" }
      if terminated { line += "  [terminated]" }
      return line
    }

    var json: String {
      let object: [String: Any] = [
        "event": event.map { $0 as Any } ?? NSNull(), "accepted": accepted, "state": state, "active": active,
        "actions": actions, "terminated": terminated, "error": error.map { $0 as Any } ?? NSNull(),
      ]
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
      return String(decoding: data, as: UTF8.self)
    }
  }
}
