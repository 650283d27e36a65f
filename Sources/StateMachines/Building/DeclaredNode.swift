internal import StateMachinesNames

/// A reference to a state as written in the definition: a name or path (N4), resolved from the
/// scope it was written in (N5); or the scope itself (a scoped `onEntry {}`).
enum StateReference: Hashable {
  /// `text` as written in the scope of declared node `scope` (-1: the root).
  case name(String, scope: Int)
  /// The declared node itself.
  case node(Int)

  /// The text, for messages.
  var text: String {
    switch self {
    case .name(let text, _): return text
    case .node: return "(the enclosing state)"
    }
  }

  /// The plain name of a flat machine's reference, written at the root.
  var flatName: String? {
    if case .name(let text, -1) = self { return text }
    return nil
  }
}

/// What a declared node is (N1): a state (atomic or compound, decided by its children), a
/// parallel state, a final state, or a pseudostate.
enum DeclaredKind: Equatable {
  case state
  case parallel
  case final
  case history(HistoryKind)
  case junction
  case join

  var isPseudostate: Bool { names.isPseudostate }

  /// The names model's kind (the history's depth is the runtime's concern).
  var names: DeclaredNodeKind {
    switch self {
    case .state: return .state
    case .parallel: return .parallel
    case .final: return .final
    case .history: return .history
    case .junction: return .junction
    case .join: return .join
    }
  }
}

/// One path of a junction (S17c).
struct JunctionPath<Model> {
  let target: StateReference
  let guardBody: MachineGuard<Model>?
  let action: MachineCallback<Model>?
  /// The bound name of the guard, and the actions as the document wrote them (bound names and
  /// declared actions), for a definition loaded from data (export).
  var guardName: String? = nil
  var actionEntries: [ActionEntry] = []
}

/// A state or pseudostate as declared, before the tree is put in document order.
struct DeclaredNode<Model> {
  /// The name; empty for an anonymous region (`addParallelState(_:regions:)`, N3).
  var name: String
  /// The declared node it was declared in, -1 for the root.
  var scope: Int
  /// For the path form (`addState("on/loading")`): the parent's path, resolved from `scope` when
  /// the definition is compiled. `nil`: the parent is `scope`.
  var parentPath: String?
  var kind: DeclaredKind
  /// `initialState` set inside this node's scope.
  var initial: [String] = []
  /// Runs after this node's entry actions when it is entered by default (S7.5, W3C 412).
  var initialAction: MachineCallback<Model>?
  /// The declared actions ``initialAction`` runs, if it is one (the path explorer runs them).
  var initialDeclared: [DeclaredAction]?
  /// A history's default targets (S15), a join's target (S17b).
  var targets: [String] = []
  /// A history's default action.
  var defaultAction: MachineCallback<Model>?
  /// The declared actions ``defaultAction`` runs, if it is one.
  var defaultDeclared: [DeclaredAction]?
  var junctionPaths: [JunctionPath<Model>] = []
  /// Added by the root's `initialState` setter, not by `addState`: dropped if a state of that
  /// name is declared anywhere.
  var isImplicit = false
  /// A free-form description, for diagrams and export.
  var description: String?
}
