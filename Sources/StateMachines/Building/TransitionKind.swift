/// How a transition treats its source state (Hierarchy S10).
public enum TransitionKind: String, Sendable, Hashable, CaseIterable {
  /// The default: the source is exited and the targets entered, even when the target is the
  /// source itself or one of its descendants (SCXML, UML and TBStateMachine agree).
  case external
  /// A compound source is not exited when every target is one of its descendants (S10a); a
  /// transition to the source itself or to an ancestor keeps that state and re-enters its default
  /// children (S10b). Between unrelated states it behaves as ``external`` (S10c).
  case local
  /// No target: nothing is exited or entered; only the transition's action runs. The same as
  /// `internal: true`.
  case `internal`
}

/// What a history pseudostate remembers of its parent when the parent is exited (S15).
public enum HistoryKind: String, Sendable, Hashable {
  /// The parent's active children.
  case shallow
  /// The parent's active atomic descendants.
  case deep
}
