/// What a declared node is (Hierarchy N1): a state (atomic or compound, decided by its
/// children once the tree is built), a parallel state, a final state, or a pseudostate.
public enum DeclaredNodeKind: Equatable, Sendable {
  case state, parallel, final, history, junction, join

  /// History, junction and join are never active and are not regions.
  public var isPseudostate: Bool {
    switch self {
    case .history, .junction, .join: return true
    case .state, .parallel, .final: return false
    }
  }
}

/// What a node of the built tree is: a declared state becomes atomic or compound.
public enum NodeKind: Equatable, Sendable {
  case atomic, compound, parallel, final, history, junction, join

  public var isPseudostate: Bool {
    switch self {
    case .history, .junction, .join: return true
    default: return false
    }
  }
}

extension DeclaredNodeKind {
  /// The kind of a node declared again in the same place with `kind` (N6): the same kind, or a
  /// state turned final (either way round); `nil` if the two kinds conflict.
  public func redeclared(as kind: DeclaredNodeKind) -> DeclaredNodeKind? {
    if self == kind { return self }
    if (self == .state && kind == .final) || (self == .final && kind == .state) { return .final }
    return nil
  }
}
