// Invokes of definitions loaded from data (Invoke A.5): work bound by name, and result
// transitions with any number of targets (SCXML's targetless `<transition event="done.invoke.x">`).

extension StateMachineBuilder {
  /// Runs work bound by name (``Bindings/invocation(_:_:)``) while the machine is in `state`, as
  /// ``invoke(_:in:run:)`` does: its input is the payload of the event that entered the state.
  /// For importers of documents; the JSON export writes the binding's name back as `src`.
  @discardableResult
  public func invoke(_ id: String, in state: String, work: BoundInvocation) -> InvokeDeclaration<Model> {
    store.invocations.append(.bound(id: id, state: reference(state), work: work))
    return InvokeDeclaration(builder: self, index: store.invocations.count - 1)
  }

  /// ``whenInvokeDone(_:transitionTo:)`` to several targets (a fork) or none (`[]`: only the
  /// transition's action runs, SCXML's targetless transition).
  @discardableResult
  public func whenInvokeDone(
    _ id: String, transitionTo targets: [String], kind: TransitionKind = .external
  ) -> TransitionDeclaration<Model> {
    invokeResult(InvocationEvents.done(id), id, targets, kind)
  }

  /// ``whenInvokeFailed(_:transitionTo:)`` to several targets or none.
  @discardableResult
  public func whenInvokeFailed(
    _ id: String, transitionTo targets: [String], kind: TransitionKind = .external
  ) -> TransitionDeclaration<Model> {
    invokeResult(InvocationEvents.error(id), id, targets, kind)
  }

  private func invokeResult(
    _ event: String, _ id: String, _ targets: [String], _ kind: TransitionKind
  ) -> TransitionDeclaration<Model> {
    var spec = TransitionSpec(event: event, from: [], to: targets.map(reference), kind: kind)
    spec.invokeID = id
    return declare(spec)
  }
}

extension InvocationSpec {
  /// An invoke of work bound by name: its input is the entering event's payload (I3, I10: `nil`
  /// after a restore).
  static func bound(id: String, state: StateReference, work: BoundInvocation) -> Self {
    let body = work.body
    var spec = InvocationSpec(
      id: id, state: state, input: { _, transition in EnteringPayload(value: transition.payload) },
      work: { start in
        let context = InvocationContext<(any Sendable)?>(
          input: (start.input as? EnteringPayload)?.value, id: start.id, generation: start.generation,
          clock: start.clock, sender: start.sender, events: start.events)
        return try await body(context)
      })
    spec.source = work.name
    return spec
  }
}

/// The payload of the event that entered an invoking state, boxed so that `nil` survives the
/// type erasure of the input.
private struct EnteringPayload: Sendable {
  let value: (any Sendable)?
}

/// The payload of `done.invoke.<id>` for a work's output (I6): `nil` for `Void` and for a `nil`
/// optional, whose wrapping would otherwise make a non-nil payload.
enum InvocationOutput {
  static func payload<Output: Sendable>(_ output: Output) -> (any Sendable)? {
    if Output.self == Void.self { return nil }
    if let optional = output as? any OptionalOutput, optional.isNone { return nil }
    return output
  }
}

/// An optional output, so that ``InvocationOutput/payload(_:)`` sees a `nil` in it.
private protocol OptionalOutput {
  var isNone: Bool { get }
}

extension Optional: OptionalOutput {
  fileprivate var isNone: Bool { self == nil }
}
