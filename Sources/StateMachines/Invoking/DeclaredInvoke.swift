// The invokes a definition declares, for tools that describe a definition (`statemachine
// validate`) without running it.

/// An invoke of a definition: its id and the state that invokes it.
public struct DeclaredInvoke: Sendable, Equatable, CustomStringConvertible {
  /// The invoke's id (its result events are `done.invoke.<id>` and `error.invoke.<id>`).
  public let id: String
  /// The invoking state (its path in a statechart).
  public let state: String

  public var description: String { "\(id) in '\(state)'" }
}

