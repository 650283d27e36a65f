/// A resolved event of one ``StateMachineDefinition``: a small index, so firing it does no
/// string hashing. Generated members hold one per event.
public struct StateMachineEventID: Hashable, Sendable {
  /// The definition the ID belongs to: every other definition rejects it.
  @usableFromInline let definition: ObjectIdentifier
  /// Where the event's column starts in the definition's fast table (`index * states.count`; the
  /// last, all-rejecting column for an unknown name): the hot path adds the state index to it.
  /// Four bytes, so that the ID stays four words with ``soleAfterTransition``
  /// (Benchmarks/README.md, "Sole `after` transition carried by the ID").
  @usableFromInline let column: UInt32
  /// The event's index in ``StateMachineDefinition/events``, or -1 for an unknown name.
  @usableFromInline let index: Int32
  /// For an event with transitions from exactly one state: that state, else -1. The hot path then
  /// compares the current state with it instead of loading the table, so the next state does not
  /// depend on a load from the current one and the CPU can predict the branch.
  @usableFromInline let onlySource: Int32
  /// The fast-table value of the `onlySource` slot (meaningful when `onlySource >= 0`).
  @usableFromInline let onlySourceSlot: TransitionSlot
  /// When the `onlySource` slot is a light transition whose only code is one `after` callback
  /// (the commonest light transition): the bits of an unretained reference to it (a
  /// `LightTransition<Model>` that the definition keeps alive), else 0. A generated method runs
  /// it without decoding the slot and finding the transition. Read only by generated members,
  /// whose definition lives as long as the process (see `_$fire`).
  @usableFromInline let soleAfterTransition: UInt

  @usableFromInline
  init(
    definition: ObjectIdentifier, index: Int32, column: Int, onlySource: Int32 = -1,
    onlySourceSlot: TransitionSlot = .none, soleAfterTransition: UInt = 0
  ) {
    self.definition = definition
    self.index = index
    self.column = UInt32(column)
    self.onlySource = onlySource
    self.onlySourceSlot = onlySourceSlot
    self.soleAfterTransition = soleAfterTransition
  }
}

/// A resolved state of one ``StateMachineDefinition``: a small index, so `is<State>` compares
/// integers.
public struct StateMachineStateID: Hashable, Sendable {
  /// The definition the ID belongs to: every other definition rejects it.
  @usableFromInline let definition: ObjectIdentifier
  /// The state's index in ``StateMachineDefinition/states``, or -1 for an unknown name.
  @usableFromInline let index: Int32

  @usableFromInline
  init(definition: ObjectIdentifier, index: Int32) {
    self.definition = definition
    self.index = index
  }
}
