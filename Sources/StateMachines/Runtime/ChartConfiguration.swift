/// The per-object state of a statechart (Hierarchy §6): the active states, the history
/// pseudostates' records and the join arrivals. Lives in the object's extras and changes under
/// its lock, written once per microstep (S7.4).
@usableFromInline
struct ChartConfiguration: Sendable {
  /// The active states (S1), a set closed under parent. Changing them forgets the number.
  @usableFromInline var active: StateSet {
    didSet { number = -1 }
  }
  /// The parallel shape's number for `active` (``StepPlans/configurations``), or -1: unknown or
  /// not numbered, so the next event takes the full step.
  @usableFromInline var number: Int32 = -1
  /// What each history pseudostate recorded when its parent was last exited (S15).
  @usableFromInline
  var history: [Int32: [Int32]] = [:]
  /// Per join, the sources that arrived (S17b).
  @usableFromInline
  var arrivals: [Int32: [Int32]] = [:]
  /// When each active state was last entered (a counter): a timeout or notification armed on
  /// entry is stale once its state was exited, even if it was entered again since (S18).
  @usableFromInline
  var entrySerial: [Int32: UInt64] = [:]
  @usableFromInline
  var serial: UInt64 = 0

  @usableFromInline
  init(capacity: Int) {
    active = StateSet(capacity: capacity)
  }
}
