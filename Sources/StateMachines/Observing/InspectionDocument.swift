// A definition as data, for the inspector's drawing and event buttons (Inspecting B.3/B.4).

/// A definition's states, transitions, invokes and event names, with the indexes that the
/// inspection records and the ids of ``StateMachineDefinition/dotDiagram(identifiers:)`` use.
///
/// `Codable` with the property names as JSON keys, so a server sends it as it is.
public struct InspectionDocument: Sendable, Codable, Equatable {
  /// One state or pseudostate.
  public struct State: Sendable, Codable, Equatable {
    /// The position in ``InspectionDocument/states``; the DOT id is `s<index>`.
    public let index: Int
    /// The canonical path.
    public let path: String
    /// The last component of the path (the name shown).
    public let name: String
    /// `atomic`, `compound`, `parallel`, `final`, `history`, `deepHistory`, `junction` or `join`.
    public let kind: String
    /// The parent state's index; `nil` at the top level.
    public let parent: Int?
    /// Whether the state is part of the initial configuration.
    public let initial: Bool

    /// Creates the description of a state.
    public init(index: Int, path: String, name: String, kind: String, parent: Int?, initial: Bool) {
      self.index = index
      self.path = path
      self.name = name
      self.kind = kind
      self.parent = parent
      self.initial = initial
    }
  }

  /// One transition, as drawn: one edge.
  public struct Transition: Sendable, Codable, Equatable {
    /// The position in ``InspectionDocument/transitions``; the DOT id is `t<index>`, and step
    /// records list it in ``InspectionRecord/transitions``.
    public let index: Int
    /// The event; `nil` for an eventless transition (and a junction's or join's outgoing path).
    public let event: String?
    /// The source state's index; -1 for a transition from any state (a wildcard).
    public let source: Int
    /// The target states' indexes; empty for a targetless (internal) transition.
    public let targets: [Int]
    /// `external`, `internal` or `local`.
    public let kind: String
    /// Whether a guard decides it.
    public let guarded: Bool
    /// The delay in seconds of a timeout transition.
    public let timeout: Double?
    /// The notification name of a notification transition.
    public let notification: String?

    /// Creates the description of a transition.
    public init(
      index: Int, event: String?, source: Int, targets: [Int], kind: String, guarded: Bool,
      timeout: Double? = nil, notification: String? = nil
    ) {
      self.index = index
      self.event = event
      self.source = source
      self.targets = targets
      self.kind = kind
      self.guarded = guarded
      self.timeout = timeout
      self.notification = notification
    }
  }

  /// One invoke: its id and the index of the state that runs it.
  public struct Invoke: Sendable, Codable, Equatable {
    /// The invoke's id.
    public let id: String
    /// The invoking state's index.
    public let state: Int

    /// Creates the description of an invoke.
    public init(id: String, state: Int) {
      self.id = id
      self.state = state
    }
  }

  /// Every state and pseudostate, in document order (a parent before its children).
  public let states: [State]
  /// Every transition, in the order the diagram draws them.
  public let transitions: [Transition]
  /// Every invoke.
  public let invokes: [Invoke]
  /// Every event name the definition declares, in declaration order.
  public let events: [String]

  /// Creates a document.
  public init(states: [State], transitions: [Transition], invokes: [Invoke], events: [String]) {
    self.states = states
    self.transitions = transitions
    self.invokes = invokes
    self.events = events
  }
}
