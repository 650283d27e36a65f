/// One cell of a definition's fast table: how an event is taken in a state, decided when the
/// definition is compiled (Semantics §Firing an event). One `Int32`, so the hot path loads
/// and compares one word:
/// - `≥ 0`: ``fast(_:)``, a transition to that state that runs no code;
/// - `-1`: ``none``, no transition;
/// - `-2`: ``full``, the full step (guards, actions, entry and exit, observers, triggers, the log);
/// - `≤ -3`: ``light(_:guarded:)``, `-3 - (index << 1 | guarded)`: the light transition at
///   `index` of `CompiledMachine.lightTransitions`, which runs only a plain guard and plain
///   `before`/`after` callbacks.
@usableFromInline
struct TransitionSlot: Hashable, Sendable {
  @usableFromInline let rawValue: Int32

  @inlinable init(rawValue: Int32) { self.rawValue = rawValue }

  /// No transition: the event is rejected.
  @inlinable static var none: Self { Self(rawValue: -1) }
  /// The full step.
  @inlinable static var full: Self { Self(rawValue: -2) }
  /// A transition to `target` that runs no code.
  @inlinable static func fast(_ target: Int32) -> Self { Self(rawValue: target) }
  /// The light transition at `index`; `guarded` when it has a guard, which `can` must run.
  static func light(_ index: Int, guarded: Bool) -> Self {
    Self(rawValue: -3 - (Int32(index) << 1 | (guarded ? 1 : 0)))
  }

  /// Whether this is a ``fast(_:)`` slot; its target is ``fastTarget``.
  @inlinable var isFast: Bool { rawValue >= 0 }
  /// The target state of a ``fast(_:)`` slot.
  @inlinable var fastTarget: Int32 { rawValue }
  /// Whether this is a ``light(_:guarded:)`` slot; its transition is at ``lightIndex``.
  @inlinable var isLight: Bool { rawValue <= -3 }
  /// The index of a light slot's transition.
  @inlinable var lightIndex: Int { Int(UInt32(bitPattern: -3 &- rawValue) >> 1) }

  /// What `can` answers from this slot without running a guard, or `nil` when a guard must run.
  @inlinable var answerWithoutGuards: Bool? {
    if self == .none { return false }
    if isFast { return true }
    // A light slot without a guard (its low bit clear) is always taken.
    if isLight, (-3 &- rawValue) & 1 == 0 { return true }
    return nil
  }

  /// Where (`event`, `state`) is in a column-major table whose columns are `columnHeight` states
  /// high: the one formula of the fast table, the step plans and the event IDs' columns.
  @inlinable @inline(__always)
  static func position(event: Int, state: Int, columnHeight: Int) -> Int { event &* columnHeight &+ state }
}
