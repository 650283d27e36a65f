// Compiles: the Invoke article's form for a `@MainActor` class whose invoked work awaits another
// actor. The awaited call sits in a `nonisolated` function; the inline `run:` closure calls it
// (or the function is passed as `run:` itself). Checked by .ci/check-compile.
import StateMachines

actor Gates {
  func wait(_ ticket: Int) async throws -> Int { ticket }
}

let gates = Gates()

@MainActor
@StateMachine
final class Job {
  static let stateMachine = StateMachineDefinition<Job> { sm in
    sm.addState("idle")
    sm.addState("running")
    sm.addState("checking")
    sm.addState("done")
    sm.when("start", transitionFrom: "idle", to: "running")
    sm.invoke("work", in: "running", input: { _, _ in 3 }, run: { context in try await Job.waitAtGates(context.input) })
    sm.whenInvokeDone("work", transitionTo: "checking")
    sm.invoke("check", in: "checking", input: { _, _ in 4 }, run: Job.check)
    sm.whenInvokeDone("check", transitionTo: "done")
  }

  /// Awaits the gates actor: nonisolated, so the definition's initializer does not see the call.
  nonisolated static func waitAtGates(_ ticket: Int) async throws -> Int {
    try await gates.wait(ticket)
  }

  nonisolated static func check(_ context: InvocationContext<Int>) async throws -> Int {
    try await gates.wait(context.input)
  }
}
