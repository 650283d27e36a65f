internal import StateMachinesNames

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
  /// Eventless transitions kept firing (Hierarchy S12): one macrostep took more than
  /// `microsteps` of them. The configuration is the one reached; the queued events were dropped.
  case eventlessLoop(event: String, microsteps: Int)
  /// `restoreState` or decoding got a configuration that is not legal (S1): two children of one
  /// compound state, or a region of a parallel state without an active state.
  case illegalConfiguration(String, reason: String)
  /// The object is store-managed (``StoreManagedStateMachine``): its state changes only through
  /// its store (Persistence P13), so an event fired on it directly is refused. Nothing changed.
  case storeManaged(event: String)

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
    case .eventlessLoop(let event, let microsteps):
      return "eventless transitions after event '\(event)' did not settle within \(microsteps) microsteps; the queued events were dropped"
    case .illegalConfiguration(let state, let reason):
      return "'\(state)' is not a legal configuration: \(reason)"
    case .runToCompletionLimit(let event, let steps):
      return "the run to completion of event '\(event)' stopped after \(steps) steps; the queued events were dropped"
    case .storeManaged(let event):
      return "event '\(event)' rejected: the object is store-managed, fire it through its store"
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
  /// A bare name matches several states in the nearest scope that has it (Hierarchy N5).
  case ambiguousState(String, candidates: [String], context: String)
  /// A path does not name a state (N4): an unknown component, a skipped anonymous region, a
  /// region index out of range, or a malformed component.
  case invalidPath(String, reason: String, context: String)
  /// A name contains `/`, `@` or `,`, which separate the components of paths (N4).
  case invalidName(String, context: String)
  /// A state declared twice under one parent with different kinds (N6).
  case duplicateState(String)
  /// The hierarchy is not well formed (S20): the message names the culprit (two fork targets in
  /// one region, a history outside its parent, a junction without paths, …).
  case invalidStructure(String)
  /// A document (SCXML, JSON) is malformed, uses something this library does not support, or
  /// names something it does not declare; `line` and `column` are 1-based.
  case invalidDocument(String, line: Int, column: Int)
  /// A JSON definition is malformed, past a ``JSONLimits`` limit, or breaks a rule of the format:
  /// where (1-based line and column) and the JSON pointer (RFC 6901) of the value at fault.
  case invalidJSON(String, line: Int, column: Int, pointer: String)
  /// A document names a guard or an action that the bindings do not supply: what it is
  /// (`guard 'hasTrack'`), the JSON pointer of its use, and where that is.
  case unboundName(String, at: String, line: Int, column: Int)
  /// An error the definition's checks found in a document, at where its culprit is written: one
  /// location, or several for an error that several nodes cause together (a duplicate name, a
  /// fork's targets in one region), the first the main one.
  indirect case located(DefinitionError, at: [DefinitionLocation])

  public var description: String {
    switch self {
    case .noStates:
      return "the definition declares no states"
    case .emptyName(let context):
      return NameError.empty.message(context: context)
    case .undeclaredState(let name, let context):
      return NameError.undeclared(name).message(context: context)
    case .undeclaredEvent(let name, let context):
      return "\(context) names undeclared event '\(name)'"
    case .internalTransitionChangesState(let event):
      return "transition '\(event)' is internal but does not lead from a state to itself"
    case .invalidValue(let value, let context):
      return "\(context) has invalid value \(value)"
    case .ambiguousState(let name, let candidates, let context):
      return NameError.ambiguous(name, candidates: candidates).message(context: context)
    case .invalidPath(let path, let reason, let context):
      return NameError.invalidPath(path, reason: reason).message(context: context)
    case .invalidName(let name, let context):
      return NameError.reservedCharacter(name).message(context: context)
    case .duplicateState(let path):
      return NameError.duplicate(path).located
    case .invalidStructure(let message):
      return message
    case .invalidDocument(let message, let line, let column):
      return "\(line):\(column): \(message)"
    case .invalidJSON(let message, let line, let column, let pointer):
      return "\(line):\(column): \(message) (at '\(pointer)')"
    case .unboundName(let name, let pointer, let line, let column):
      return "\(line):\(column): \(name) is not bound (at '\(pointer)')"
    case .located(let error, let locations):
      guard let first = locations.first else { return error.description }
      let main = "\(first.line):\(first.column): \(error)" + (first.pointer.map { " (at '\($0)')" } ?? "")
      return ([main] + locations.dropFirst().map { "also \($0)" }).joined(separator: "; ")
    }
  }
}

extension DefinitionError {
  /// A name error of the names model, in the context that names the culprit. Its message is the
  /// model's one wording (``NameError/message(context:)``).
  init(_ error: NameError, context: String) {
    switch error {
    case .empty: self = .emptyName(context: context)
    case .reservedCharacter(let name), .notPortable(let name): self = .invalidName(name, context: context)
    case .undeclared(let name): self = .undeclaredState(name, context: context)
    case .ambiguous(let name, let candidates): self = .ambiguousState(name, candidates: candidates, context: context)
    case .invalidPath(let path, let reason): self = .invalidPath(path, reason: reason, context: context)
    case .duplicate(let name): self = .duplicateState(name)
    }
  }
}
