/// One action as a document writes it (JSON `actions`, `entry`, `exit`): a name bound in code,
/// or a declared action. Kept in order for export.
enum ActionEntry: Hashable {
  case bound(String)
  case declared(DeclaredAction)

  /// The declared actions among `entries`, in order.
  static func declared(in entries: [ActionEntry]) -> [DeclaredAction] {
    entries.compactMap { if case .declared(let action) = $0 { return action } else { return nil } }
  }

  /// Whether `entries` name code (a bound action).
  static func hasCode(_ entries: [ActionEntry]) -> Bool {
    entries.contains { if case .bound = $0 { return true } else { return false } }
  }
}
