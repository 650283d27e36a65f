/// A transition just declared, returned by every call that declares one (`when`, the wildcard
/// `when(_:transitionFromAnyStateTo:)`, timeouts, notifications and `die`): add a guard or an
/// action to it, in one of two forms, the same for every kind of transition.
///
/// ```swift
/// sm.when("upgrade", transitionFrom: "basic", to: "premium")
///   .guarded { $0.hasPaid }                                  // sees the model
///   .action { account, transition in                        // sees the Transition (payload)
///     account.charge(transition.payload(as: Int.self) ?? 0)
///   }
/// sm.when("lock", transitionFrom: "closed", to: "locked", after: .seconds(5)).action { $0.beep() }
/// ```
///
/// A guard decides whether the transition is taken: of several transitions for the same event and
/// state, the first whose guard passes wins (specific from-states before wildcards). A second
/// `guarded` must pass too. The action runs after the exit actions of the old state and before the
/// state is written; a second `action` runs after the first. Guards and actions may throw: see
/// ``StateMachineError/callbackFailed(event:transitionHappened:underlying:)``.
public struct TransitionDeclaration<Model> {
  let builder: StateMachineBuilder<Model>
  let index: Int

  /// Takes the transition only if `guard` returns `true` for the model.
  @discardableResult
  public func guarded(_ guard: @escaping (Model) throws -> Bool) -> Self {
    builder.addGuard(.plain(`guard`), at: index)
    return self
  }

  /// Takes the transition only if `guard` returns `true`; it also receives the ``Transition``,
  /// with the event's payload.
  @discardableResult
  public func guarded(_ guard: @escaping (Model, Transition) throws -> Bool) -> Self {
    builder.addGuard(.withTransition(`guard`), at: index)
    return self
  }

  /// Runs `action` when the transition is taken.
  @discardableResult
  public func action(_ action: @escaping (Model) throws -> Void) -> Self {
    builder.addAction(.plain(action), at: index)
    return self
  }

  /// Runs `action`, which also receives the ``Transition``, when the transition is taken.
  @discardableResult
  public func action(_ action: @escaping (Model, Transition) throws -> Void) -> Self {
    builder.addAction(.withTransition(action), at: index)
    return self
  }
}
