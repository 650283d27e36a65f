/// A JSON value as ``JSONReader`` read it: objects keep their members in document order (the
/// order states and transitions are declared in, Hierarchy N2), and every value knows the
/// byte offset it starts at, for error messages.
struct JSONValue {
  enum Kind {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order; keys are unique.
    case object([JSONMember])
  }

  let kind: Kind
  /// Where the value starts in the document.
  let offset: Int

  /// A name for the kind, for messages ("expected a string, found an array").
  var kindName: String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// One member of a JSON object.
struct JSONMember {
  let key: String
  let value: JSONValue
}
