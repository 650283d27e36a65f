/// One `before` or `after` callback of the flat step, in a box that the step calls through an
/// unowned, guaranteed reference: copying a ``MachineCallback`` out of the tables retains its
/// closure's context, two atomic operations per callback and step (see ``PlainCallbackBox``).
@usableFromInline
final class StepCallbackBox<Model> {
  @usableFromInline let body: (Model, Transition) throws -> Void

  init(_ callback: MachineCallback<Model>) {
    switch callback {
    case .plain(let body): self.body = { model, _ in try body(model) }
    case .withTransition(let body): self.body = body
    }
  }
}

/// An event's `before` and `after` callbacks, boxed, for the flat step. Reached through an
/// unowned reference, so iterating them retains no array either. Built once per definition.
@usableFromInline
final class StepCallbacks<Model> {
  /// Unowned references to the `before` callbacks, in declaration order (kept alive by ``boxes``).
  @usableFromInline let before: [Unmanaged<StepCallbackBox<Model>>]
  /// Unowned references to the `after` callbacks, in declaration order (kept alive by ``boxes``).
  @usableFromInline let after: [Unmanaged<StepCallbackBox<Model>>]
  private let boxes: [StepCallbackBox<Model>]

  init(before: [MachineCallback<Model>], after: [MachineCallback<Model>]) {
    let beforeBoxes = before.map(StepCallbackBox.init)
    let afterBoxes = after.map(StepCallbackBox.init)
    self.before = beforeBoxes.map { Unmanaged.passUnretained($0) }
    self.after = afterBoxes.map { Unmanaged.passUnretained($0) }
    boxes = beforeBoxes + afterBoxes
  }

  /// Each event's callbacks of `compiled`, by event index.
  static func table(_ compiled: CompiledMachine<Model>) -> [StepCallbacks<Model>] {
    zip(compiled.beforeCallbacks, compiled.afterCallbacks).map { StepCallbacks(before: $0, after: $1) }
  }
}
