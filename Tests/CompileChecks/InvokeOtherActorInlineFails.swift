// Does not compile (Swift 6.3): in a `@MainActor` class, an inline `run:` closure that awaits
// another actor. The definition's initializer uses the class's main-actor conformance, and the
// compiler counts the awaited call inside the closure as a second isolation of that initializer.
// No shape of `invoke` avoids it; the Invoke article ("Awaiting another actor from a main-actor
// class") gives the form that compiles, checked by InvokeOtherActorThroughNonisolatedFunction.swift.
// Checked by .ci/check-compile: when a compiler accepts this, the article's workaround can go.
// expect-error: default argument cannot be both main actor-isolated and actor-isolated
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
    sm.addState("done")
    sm.when("start", transitionFrom: "idle", to: "running")
    sm.invoke("work", in: "running", input: { _, _ in 3 }, run: { context in try await gates.wait(context.input) })
    sm.whenInvokeDone("work", transitionTo: "done")
  }
}
