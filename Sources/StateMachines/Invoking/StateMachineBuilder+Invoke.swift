// The invoke DSL (Invoke A.3): async work bound to a state, and the transitions its result
// takes.

extension StateMachineBuilder {
  /// Runs `run` while the machine is in `state` (the Invoke article): the work starts when the step
  /// that entered the state ends (after its entry actions, I2), is cancelled when the state is left
  /// (I8), and its result comes back as an event: `done.invoke.<id>` with the output as payload, or
  /// `error.invoke.<id>` with the error (I6). A result that arrives after its state was left or
  /// re-entered is dropped (I7). Take them with ``whenInvokeDone(_:transitionTo:)`` and
  /// ``whenInvokeFailed(_:transitionTo:)``.
  ///
  /// `input` runs inside the step, with the model and the transition that entered the state: it
  /// is the only code of the invocation that sees the model (I3). If it throws, no work starts
  /// and `error.invoke.<id>` is raised at once. `run` runs in a task of its own and gets the
  /// input through its ``InvocationContext``.
  ///
  /// The class must be isolated to a global actor (`@MainActor`) or declare `Sendable`, so that
  /// results can be delivered safely (I11); store-managed classes cannot invoke yet.
  @discardableResult
  public func invoke<Input: Sendable, Output: Sendable>(
    _ id: String, in state: String,
    input: @escaping (Model, Transition) throws -> Input,
    run: @escaping @Sendable (InvocationContext<Input>) async throws -> Output
  ) -> InvokeDeclaration<Model> {
    let work: @Sendable (InvocationStart) async throws -> (any Sendable)? = { start in
      guard let input = start.input as? Input else { throw InvocationInputMismatch() }
      let context = InvocationContext(
        input: input, id: start.id, generation: start.generation, clock: start.clock, sender: start.sender,
        events: start.events)
      let output = try await run(context)
      // A `Void` result, or an optional one that is `nil`, is no payload (I6).
      return InvocationOutput.payload(output)
    }
    store.invocations.append(
      InvocationSpec(id: id, state: reference(state), input: { model, transition in try input(model, transition) }, work: work))
    return InvokeDeclaration(builder: self, index: store.invocations.count - 1)
  }

  /// Runs `run` while the machine is in `state`; its input is the payload of the event that
  /// entered the state (`nil` after a restore). See ``invoke(_:in:input:run:)``.
  @discardableResult
  public func invoke<Output: Sendable>(
    _ id: String, in state: String,
    run: @escaping @Sendable (InvocationContext<(any Sendable)?>) async throws -> Output
  ) -> InvokeDeclaration<Model> {
    invoke(id, in: state, input: { _, transition in transition.payload }, run: run)
  }

  /// Declares the transition that the successful result of invoke `id` takes, from the invoking
  /// state to `target`: the event `done.invoke.<id>`, whose payload is the work's output (`nil`
  /// for `Void`). Add `.guarded` and `.action` as to any transition.
  @discardableResult
  public func whenInvokeDone(_ id: String, transitionTo target: String) -> TransitionDeclaration<Model> {
    invokeResultTransition(InvocationEvents.done(id), id, target)
  }

  /// Declares the transition that a failure of invoke `id` takes (its work threw, or its `input`
  /// did, or the machine was restored with `.onRestore(.fail)`): the event `error.invoke.<id>`,
  /// whose payload is the error.
  @discardableResult
  public func whenInvokeFailed(_ id: String, transitionTo target: String) -> TransitionDeclaration<Model> {
    invokeResultTransition(InvocationEvents.error(id), id, target)
  }

  private func invokeResultTransition(_ event: String, _ id: String, _ target: String) -> TransitionDeclaration<Model> {
    var spec = TransitionSpec(event: event, from: [], to: [reference(target)])
    spec.invokeID = id
    return declare(spec)
  }
}

/// The names of an invoke's result events (I1).
enum InvocationEvents {
  static let donePrefix = "done.invoke."
  static let errorPrefix = "error.invoke."
  static func done(_ id: String) -> String { donePrefix + id }
  static func error(_ id: String) -> String { errorPrefix + id }
}

/// An invoke as declared (``StateMachineBuilder/invoke(_:in:input:run:)``), its types erased.
struct InvocationSpec<Model> {
  let id: String
  var state: StateReference
  let input: (Model, Transition) throws -> any Sendable
  let work: @Sendable (InvocationStart) async throws -> (any Sendable)?
  var onRestore: InvocationRestorePolicy = .restart
  var autoforward = false
  /// The name its work was bound to (``BoundInvocation``), for a definition loaded from data
  /// (export); `nil` for work written in code.
  var source: String? = nil
}

/// Thrown by the erased work closure if its input is not of the declared type (cannot happen:
/// the input comes from the same declaration).
struct InvocationInputMismatch: Error {}
