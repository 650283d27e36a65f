/// What is wrong with a state name, a path or a reference to a state (Hierarchy N4–N6), with
/// one wording per case: the runtime, the loaders and the macro all report name errors through
/// ``message(context:)``, so a definition says the same thing wherever it is checked.
public enum NameError: Error, Equatable, Sendable {
  /// The name is empty.
  case empty
  /// A name contains `/`, `@` or `,`, which separate the components of paths (N4).
  case reservedCharacter(String)
  /// A name breaks the stricter rule of the JSON definition format (``NameGrammar/isPortable(_:)``).
  case notPortable(String)
  /// No state has this name or path (N5).
  case undeclared(String)
  /// A bare name matches several states in the nearest scope that has it (N5); the candidates'
  /// canonical paths.
  case ambiguous(String, candidates: [String])
  /// A path does not name a state (N4): why, in words.
  case invalidPath(String, reason: String)
  /// A state declared twice under one parent with different kinds (N6); a state may only be
  /// repeated or turned final.
  case duplicate(String)

  /// The message, `context` saying what names the culprit (`transition 'go'`, `addState`).
  public func message(context: String) -> String {
    switch self {
    case .empty:
      return "empty name in \(context)"
    case .reservedCharacter(let name):
      return "\(context): \(Self.reservedCharacterText(name))"
    case .notPortable(let name):
      return "\(context): \(Self.notPortableText(name))"
    case .undeclared(let name):
      return "\(context) names undeclared state '\(name)'"
    case .ambiguous(let name, let candidates):
      return "\(context) names ambiguous state '\(name)': " + candidates.map { "'\($0)'" }.joined(separator: " or ")
    case .invalidPath(let path, let reason):
      return "\(context) names invalid path '\(path)': \(reason)"
    case .duplicate:
      return located
    }
  }

  /// The message of a loader, which locates the culprit itself (a line, a JSON pointer), so it
  /// needs no context.
  public var located: String {
    switch self {
    case .empty: return "state name is empty"
    case .reservedCharacter(let name): return Self.reservedCharacterText(name)
    case .notPortable(let name): return Self.notPortableText(name)
    case .undeclared(let name): return "undeclared state '\(name)'"
    case .ambiguous(let name, let candidates):
      return "ambiguous state '\(name)': " + candidates.map { "'\($0)'" }.joined(separator: " or ")
    case .invalidPath(let path, let reason): return "invalid path '\(path)': \(reason)"
    case .duplicate(let name): return "state '\(name)' is declared twice with different kinds"
    }
  }

  private static func reservedCharacterText(_ name: String) -> String {
    "state name '\(name)' contains '/', '@' or ',', which separate path components"
  }

  private static func notPortableText(_ name: String) -> String {
    "invalid state name '\(name)': it must start with a letter and hold only letters, digits, '_', '-' and spaces"
  }
}
