/// Where in a document (JSON or SCXML) the culprit of a ``DefinitionError`` is written, so that a
/// user with a large chart need not search for it.
public struct DefinitionLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The 1-based line.
  public let line: Int
  /// The 1-based column, in characters.
  public let column: Int
  /// The RFC 6901 pointer of the culprit's value in a JSON document; `nil` for SCXML.
  public let pointer: String?

  /// A location: `pointer` for a JSON document only.
  public init(line: Int, column: Int, pointer: String? = nil) {
    self.line = line
    self.column = column
    self.pointer = pointer
  }

  /// `line:column`, and ` (at 'pointer')` for JSON: the form the located errors print.
  public var description: String {
    "\(line):\(column)" + (pointer.map { " (at '\($0)')" } ?? "")
  }
}
