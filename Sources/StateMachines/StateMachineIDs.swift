/// A resolved event of one ``StateMachineDefinition``: a small index, so firing it does no
/// string hashing. Generated members hold one per event.
public struct StateMachineEventID: Hashable, Sendable {
  /// The event's index in ``StateMachineDefinition/events``, or -1 for an unknown name.
  @usableFromInline let index: Int32
  /// Where the event's column starts in the definition's fast table (`index * states.count`; the
  /// last, all-rejecting column for an unknown name): the hot path adds the state index to it.
  @usableFromInline let column: Int

  @usableFromInline
  init(index: Int32, column: Int) {
    self.index = index
    self.column = column
  }
}

/// A resolved state of one ``StateMachineDefinition``: a small index, so `is<State>` compares
/// integers.
public struct StateMachineStateID: Hashable, Sendable {
  /// The state's index in ``StateMachineDefinition/states``, or -1 for an unknown name.
  @usableFromInline let index: Int32

  @usableFromInline
  init(index: Int32) { self.index = index }
}
