/// Why an event was rejected, or why a step failed.
public enum StateMachineError: Error, CustomStringConvertible {
  /// The machine has no event with this name.
  case unknownEvent(String)
  /// The event has no transition from the current state.
  case noTransition(event: String, state: String)
  /// The event has transitions from the current state, but every guard returned `false`.
  case guardsFailed(event: String, state: String)
  /// The machine has terminated (a final state was entered, or a terminating transition taken).
  case terminated(event: String, state: String)
  /// The string is not a state of the machine (from `restoreState` or decoding).
  case unknownState(String)
  /// The definition is invalid; every event is rejected.
  case invalidDefinition(DefinitionError)
  /// A callback, guard or action threw. `transitionHappened` says whether the state was already
  /// written: `false` means nothing changed; `true` means the machine is in the new state.
  case callbackFailed(event: String, transitionHappened: Bool, underlying: any Error)
  /// An event or state ID of another definition, or an object that another definition drives.
  case foreignID
  /// The operation (named) cannot run while the machine runs a step: `restoreState` called from
  /// one of its callbacks, say. Nothing changed.
  case busy(String)
  /// One run to completion took more steps than the definition allows
  /// (``StateMachineBuilder/maxStepsPerRunToCompletion``): callbacks kept firing events. The
  /// state is the last one reached; the events still queued were dropped (and logged).
  case runToCompletionLimit(event: String, steps: Int)

  public var description: String {
    switch self {
    case .unknownEvent(let event):
      return "unknown event '\(event)'"
    case .noTransition(let event, let state):
      return "event '\(event)' has no transition from state '\(state)'"
    case .guardsFailed(let event, let state):
      return "every guard of event '\(event)' failed in state '\(state)'"
    case .terminated(let event, let state):
      return "event '\(event)' rejected: the machine terminated in state '\(state)'"
    case .unknownState(let state):
      return "'\(state)' is not a state of the machine"
    case .invalidDefinition(let error):
      return "invalid state machine definition: \(error)"
    case .callbackFailed(let event, let happened, let underlying):
      let outcome = happened ? "after the state changed" : "before the state changed; nothing changed"
      return "a callback of event '\(event)' threw \(outcome): \(underlying)"
    case .foreignID:
      return "the ID or the object belongs to another state machine definition"
    case .busy(let operation):
      return "\(operation) cannot run while the machine runs a step; nothing changed"
    case .runToCompletionLimit(let event, let steps):
      return "the run to completion of event '\(event)' stopped after \(steps) steps; the queued events were dropped"
    }
  }
}

/// A definition that cannot be compiled, naming the culprit.
public enum DefinitionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The definition has no states.
  case noStates
  /// A state or event name is empty.
  case emptyName(context: String)
  /// A transition, callback or action names a state that was never added.
  case undeclaredState(String, context: String)
  /// A callback names an event that no transition declares.
  case undeclaredEvent(String, context: String)
  /// A transition declared internal leads to another state (internal means "stay").
  case internalTransitionChangesState(event: String)
  /// A value is out of range (e.g. a negative timeout).
  case invalidValue(String, context: String)

  public var description: String {
    switch self {
    case .noStates:
      return "the definition declares no states"
    case .emptyName(let context):
      return "empty name in \(context)"
    case .undeclaredState(let name, let context):
      return "\(context) names undeclared state '\(name)'"
    case .undeclaredEvent(let name, let context):
      return "\(context) names undeclared event '\(name)'"
    case .internalTransitionChangesState(let event):
      return "transition '\(event)' is internal but does not lead from a state to itself"
    case .invalidValue(let value, let context):
      return "\(context) has invalid value \(value)"
    }
  }
}
