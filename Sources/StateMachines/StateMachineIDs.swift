/// A resolved event of one ``StateMachineDefinition``: a small index, so firing it does no
/// string hashing. Generated members hold one per event.
public struct StateMachineEventID: Hashable, Sendable {
  /// The event's index in ``StateMachineDefinition/events``, or -1 for an unknown name.
  @usableFromInline let index: Int32

  @usableFromInline
  init(index: Int32) { self.index = index }
}

/// A resolved state of one ``StateMachineDefinition``: a small index, so `is<State>` compares
/// integers.
public struct StateMachineStateID: Hashable, Sendable {
  /// The state's index in ``StateMachineDefinition/states``, or -1 for an unknown name.
  @usableFromInline let index: Int32

  @usableFromInline
  init(index: Int32) { self.index = index }
}
