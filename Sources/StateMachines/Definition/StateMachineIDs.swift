/// A resolved event of one ``StateMachineDefinition``: a small index, so firing it does no
/// string hashing. Generated members hold one per event.
public struct StateMachineEventID: Hashable, Sendable {
  /// The definition the ID belongs to: every other definition rejects it.
  @usableFromInline let definition: ObjectIdentifier
  /// Where the event's column starts in the definition's fast table (`index * states.count`; the
  /// last, all-rejecting column for an unknown name): the hot path adds the state index to it.
  @usableFromInline let column: Int
  /// For an event with transitions from exactly one state: that state, else -1. The hot path then
  /// compares the current state with it instead of loading the table, so the next state does not
  /// depend on a load from the current one and the CPU can predict the branch.
  @usableFromInline let onlySource: Int32
  /// The event's index in ``StateMachineDefinition/events``, or -1 for an unknown name.
  ///
  /// Declared after `onlySource`, not before: an ID passed as an argument travels in registers,
  /// two adjacent `Int32`s sharing one, and the hot path reads `onlySourceSlot` alone, which a
  /// shared register would make cost an extra move per event in a loop of generated methods.
  @usableFromInline let index: Int32
  /// The fast-table value of the `onlySource` slot (meaningful when `onlySource >= 0`).
  @usableFromInline let onlySourceSlot: TransitionSlot

  @usableFromInline
  init(definition: ObjectIdentifier, index: Int32, column: Int, onlySource: Int32 = -1, onlySourceSlot: TransitionSlot = .none) {
    self.definition = definition
    self.index = index
    self.column = column
    self.onlySource = onlySource
    self.onlySourceSlot = onlySourceSlot
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
