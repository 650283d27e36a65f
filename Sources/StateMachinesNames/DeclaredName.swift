/// A state or pseudostate as declared, before the tree is built: what the names model needs of
/// it. The runtime's builder and the macro's reader each describe their declarations this way.
public struct DeclaredName: Sendable {
  /// The own name (a path's last component); empty for an anonymous region (N3).
  public var name: String
  /// The declared node it was declared in, -1 for the root.
  public var scope: Int
  /// For the path form (`addState("on/loading")`): the parent's path, resolved from `scope`.
  public var parentPath: String?
  public var kind: DeclaredNodeKind
  /// Left out of the tree: a root `initialState` placeholder whose name is declared elsewhere, or
  /// a name the macro cannot read.
  public var isExcluded: Bool

  public init(name: String, scope: Int, parentPath: String? = nil, kind: DeclaredNodeKind, isExcluded: Bool = false) {
    self.name = name
    self.scope = scope
    self.parentPath = parentPath
    self.kind = kind
    self.isExcluded = isExcluded
  }
}

/// A declaration that cannot be placed: which one, what is wrong, and what to call it in the
/// message (`addState`, or `addState('on/loading')` for a path whose parent does not resolve).
public struct DeclarationError: Error, Equatable, Sendable {
  /// The declared node.
  public let declared: Int
  public let error: NameError
  public let context: String

  public init(declared: Int, error: NameError, context: String) {
    self.declared = declared
    self.error = error
    self.context = context
  }

  public var message: String { error.message(context: context) }
}
