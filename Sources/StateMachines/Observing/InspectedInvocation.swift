// An invocation as the inspector's `.invoke` records show it (Inspecting B.4, Invoke I15).

/// One change of an invocation's life: started, cancelled, finished with a result or an error,
/// or a result dropped because the invocation was no longer current.
public struct InspectedInvocation: Sendable, Hashable {
  /// What happened to the invocation.
  public enum Phase: String, Sendable {
    /// Its state was entered and its work started.
    case started
    /// Its state was left (or the machine stopped) before the work finished.
    case cancelled
    /// The work returned; its `done.invoke.<id>` event follows.
    case done
    /// The work threw; its `error.invoke.<id>` event follows.
    case error
    /// A result or event arrived from a run that is no longer current, and was ignored.
    case dropped
  }

  /// The invoke's id, as declared.
  public let id: String
  /// Which run of the invoke this is (each entry of its state starts a new generation).
  public let generation: UInt64
  /// The canonical path of the invoking state.
  public let state: String
  /// What happened.
  public let phase: Phase

  /// Creates the description of one invocation change.
  public init(id: String, generation: UInt64, state: String, phase: Phase) {
    self.id = id
    self.generation = generation
    self.state = state
    self.phase = phase
  }
}
