/// A transition of the light tier: it runs only plain code (no ``Transition`` is built), namely an
/// optional plain guard, the event's plain `before` callbacks then the source's exit actions, and
/// the target's entry actions then the event's `after` callbacks (Semantics steps 2, 3, 4, 6, 7,
/// 8, 9), and it changes the state.
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
  /// Unowned references to the event's `before` callbacks, then the source state's exit
  /// actions (kept alive by ``boxes``): what runs before the state is written.
  @usableFromInline let before: [Unmanaged<PlainCallbackBox<Model>>]
  /// Unowned references to the target state's entry actions, then the event's `after`
  /// callbacks (kept alive by ``boxes``): what runs once the state is written.
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

extension LightTransition {
  /// Orders the light transitions of a definition's `slots` (their positions in `fastSlots`) and
  /// writes each one's light slot there. Those whose only code is one `after` callback come last,
  /// so that their slots are the lowest: returns the highest of those, or `Int32.min` if there are
  /// none (``CompiledMachine/soleAfterSlotLimit``).
  static func place(
    _ slots: [(position: Int, transition: LightTransition)], in fastSlots: inout [TransitionSlot]
  ) -> (transitions: [LightTransition], soleAfterSlotLimit: Int32) {
    let ordered =
      slots.filter { $0.transition.soleAfterCallback == nil }
      + slots.filter { $0.transition.soleAfterCallback != nil }
    var soleAfterSlotLimit = Int32.min
    for (index, (position, transition)) in ordered.enumerated() {
      let slot = TransitionSlot.light(index, guarded: transition.guardBox != nil)
      fastSlots[position] = slot
      if transition.soleAfterCallback != nil { soleAfterSlotLimit = max(soleAfterSlotLimit, slot.rawValue) }
    }
    return (ordered.map(\.transition), soleAfterSlotLimit)
  }
}
