/// What in the declarations caused a definition error the compiler found: the loaders of
/// documents (JSON, TB JSON, SCXML) map it back to where the culprit is written, so that every
/// error they report is located (``DefinitionError/located(_:at:)``). Indices are the builder
/// store's (its declared nodes, its declared transitions); paths are canonical (N4), for a loader
/// that knows its states by path.
package enum DefinitionCulprit: Equatable, Sendable {
  /// A declared node.
  case node(Int, path: String)
  /// The `n`th call that declared a node (from 0): a redeclaration that conflicts (N6).
  case declaration(Int)
  /// The initial states of a declared node (-1 and "": the root), or the `entry`th of them.
  case initial(of: Int, path: String, entry: Int?)
  /// A declared transition, or its `target`th target.
  case transition(Int, target: Int?)
  /// The `index`th path of a junction.
  case junctionPath(of: Int, path: String, index: Int)
  /// The `entry`th default target of a history.
  case historyDefault(of: Int, path: String, entry: Int)
}
