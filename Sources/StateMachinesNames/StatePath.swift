/// Paths of states (Hierarchy N4): `path := comp ("/" comp)*`, `comp := name | name "@" index`,
/// where `x@i` is region `i` of parallel state `x`.
public enum StatePath {
  /// One component of a path: a name, and the region index that follows it, if any.
  public struct Component: Equatable, Sendable {
    public let name: Substring
    public let region: Int?
  }

  /// Whether `text` is a path from the root (it holds `/` or `@`) rather than a bare name (N5).
  @inlinable
  public static func isPath(_ text: some StringProtocol) -> Bool {
    text.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "@") }
  }

  /// Splits a declaration (`addState("on/loading")`) into the parent's path and the new state's
  /// own name: `("on", "loading")`; `(nil, "idle")` for a plain name. The parent path is resolved
  /// later, once the states it names are declared.
  public static func splitDeclaration(_ text: String) -> (parentPath: String?, name: String) {
    guard let slash = text.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (nil, text) }
    return (String(text[..<slash]), String(text[text.utf8.index(after: slash)...]))
  }

  /// Reads the component of `path` that starts `rest`: the component, and the rest of the path
  /// after its `/` (`nil` at the end).
  ///
  /// Separators are found among the bytes, not the `Character`s: a name may start with a
  /// combining mark, which forms one `Character` with the `/` or `@` before it.
  static func next(_ rest: Substring, in path: String) throws(NameError) -> (Component, Substring?) {
    let slash = rest.utf8.firstIndex(of: UInt8(ascii: "/"))
    let text = slash.map { rest[..<$0] } ?? rest
    var name = text
    var region: Int?
    if let at = text.utf8.firstIndex(of: UInt8(ascii: "@")) {
      name = text[..<at]
      let digits = text[text.utf8.index(after: at)...]
      guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
        let value = Int(digits)
      else {
        throw .invalidPath(path, reason: "'\(text)' has no valid region index")
      }
      region = value
    }
    guard !name.isEmpty else { throw .invalidPath(path, reason: "empty component") }
    return (Component(name: name, region: region), slash.map { rest[rest.utf8.index(after: $0)...] })
  }

  /// The components of `path`, checked for form only (not against a tree).
  public static func components(_ path: String) throws(NameError) -> [Component] {
    var result: [Component] = []
    var rest: Substring? = Substring(path)
    while let current = rest {
      let (component, after) = try next(current, in: path)
      result.append(component)
      rest = after
    }
    return result
  }
}
