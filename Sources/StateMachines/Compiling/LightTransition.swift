/// A transition of the light tier: it runs only plain code (no ``Transition`` is built), namely an
/// optional plain guard and the event's plain `before` and `after` callbacks (SEMANTICS.md steps
/// 2, 3, 6, 8, 9), and it changes the state.
///
/// Built once per light slot when the definition is compiled. Only data: the definition's
/// `fireLight` runs it, reaching it and the boxed closures through unowned references, so a light
/// transition retains and releases nothing.
@usableFromInline
final class LightTransition<Model> {
  /// The state the transition writes.
  @usableFromInline let target: Int32
  /// An unowned reference to the guard, if the transition has one (kept alive by ``guardOwner``).
  @usableFromInline let guardBox: Unmanaged<PlainGuardBox<Model>>?
  /// Unowned references to the event's `before` callbacks (kept alive by ``boxes``).
  @usableFromInline let before: [Unmanaged<PlainCallbackBox<Model>>]
  /// Unowned references to the event's `after` callbacks (kept alive by ``boxes``).
  @usableFromInline let after: [Unmanaged<PlainCallbackBox<Model>>]
  /// The callback of a transition whose only code is one `after` callback, the commonest shape
  /// (a side effect once the state changed); `nil` otherwise. The hot path calls it without the
  /// loops over ``before`` and ``after``.
  @usableFromInline let soleAfterCallback: Unmanaged<PlainCallbackBox<Model>>?
  private let boxes: [PlainCallbackBox<Model>]
  private let guardOwner: PlainGuardBox<Model>?

  init(
    target: Int32, guardBox: PlainGuardBox<Model>?,
    before: [PlainCallbackBox<Model>], after: [PlainCallbackBox<Model>]
  ) {
    self.target = target
    guardOwner = guardBox
    self.guardBox = guardBox.map { Unmanaged.passUnretained($0) }
    self.before = before.map { Unmanaged.passUnretained($0) }
    self.after = after.map { Unmanaged.passUnretained($0) }
    boxes = before + after
    soleAfterCallback =
      guardBox == nil && before.isEmpty && after.count == 1 ? Unmanaged.passUnretained(after[0]) : nil
  }
}
