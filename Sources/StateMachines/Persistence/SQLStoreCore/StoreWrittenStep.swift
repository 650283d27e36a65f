// What a SQL store's step leaves for after its commit, the same for every database adapter.

/// A step a SQL store wrote in its open transaction: the answer its `fire` returns, and the step's
/// held-back work (`after` callbacks, observers, streams) for after the commit (P5).
///
/// `@unchecked Sendable` for its model, made in the step's transaction and handed back to the task
/// that awaits it (`_StoreHandOff` says why that is sound).
package struct StoreWrittenStep<Model: StateMachineObject>: @unchecked Sendable {
  /// The step, when it holds work back; `nil` for a step with nothing held (the fast path, a
  /// replayed request).
  package let step: StoreStep?
  /// What the store's `fire` answers.
  package let fired: Fired<Model>

  /// The written `step` on `model`: its versions, states and transitions say what it did.
  package init(_ step: StoreStep, _ model: Model) {
    self.step = step
    self.fired = Fired(
      model: model, from: step.before.state, to: step.after.state, version: step.after.version,
      transitions: step.transitions)
  }

  /// A step that holds nothing back, known by what `fire` answers.
  package init(fired: Fired<Model>) {
    self.step = nil
    self.fired = fired
  }

  /// Runs the held-back work once the transaction has committed (P5).
  package func committed() {
    step?.committed()
  }
}
