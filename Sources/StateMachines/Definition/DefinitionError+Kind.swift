extension DefinitionError {
  /// The cases of ``DefinitionError``, without their values: each is named as its case.
  public enum Kind: String, CaseIterable, Sendable {
    case noStates, emptyName, undeclaredState, undeclaredEvent, internalTransitionChangesState, invalidValue
    case ambiguousState, invalidPath, invalidName, duplicateState, invalidStructure, invalidDocument
    case invalidJSON, unboundName, located
  }

  /// The case of this error: for a tool that groups errors, and for the test that checks every
  /// case a document can produce is reported at its location (a new case breaks this switch).
  public var kind: Kind {
    switch self {
    case .noStates: return .noStates
    case .emptyName: return .emptyName
    case .undeclaredState: return .undeclaredState
    case .undeclaredEvent: return .undeclaredEvent
    case .internalTransitionChangesState: return .internalTransitionChangesState
    case .invalidValue: return .invalidValue
    case .ambiguousState: return .ambiguousState
    case .invalidPath: return .invalidPath
    case .invalidName: return .invalidName
    case .duplicateState: return .duplicateState
    case .invalidStructure: return .invalidStructure
    case .invalidDocument: return .invalidDocument
    case .invalidJSON: return .invalidJSON
    case .unboundName: return .unboundName
    case .located: return .located
    }
  }
}
