/// Describes the paths of a junction (a UML static choice, Hierarchy S17c): tried in order
/// when a transition to the junction is selected; the first whose guard passes is taken, and
/// `otherwise` comes last. A transition to a junction none of whose paths passes is not enabled.
///
/// ```swift
/// sm.addJunction("route") { j in
///   j.path(to: "on/playing", if: { _, t in t.payload(as: Bool.self) == true })
///   j.otherwise(to: "off")
/// }
/// ```
public final class JunctionBuilder<Model> {
  var paths: [JunctionPath<Model>] = []
  private var otherwisePath: JunctionPath<Model>?
  let scope: Int

  init(scope: Int) {
    self.scope = scope
  }

  /// A path to `target`, taken if `guard` passes; `action` runs after the incoming transition's.
  public func path(
    to target: String, if guard: @escaping (Model, Transition) throws -> Bool,
    action: ((Model, Transition) throws -> Void)? = nil
  ) {
    paths.append(
      JunctionPath(
        target: .name(target, scope: scope), guardBody: .withTransition(`guard`), action: action.map { .withTransition($0) }
      ))
  }

  /// The path taken when no other passes.
  public func otherwise(to target: String, action: ((Model, Transition) throws -> Void)? = nil) {
    otherwisePath = JunctionPath(target: .name(target, scope: scope), guardBody: nil, action: action.map { .withTransition($0) })
  }

  /// The paths in the order they are tried.
  var allPaths: [JunctionPath<Model>] { paths + (otherwisePath.map { [$0] } ?? []) }
}
