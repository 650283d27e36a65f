/// A JSON document being loaded: its bytes (to place errors at a line and column) and its limits.
/// The two formats' loaders read values through it, so that every error names where it is.
struct JSONDocument {
  let bytes: [UInt8]
  let limits: JSONLimits
  let root: JSONValue

  /// Reads `bytes`; a syntax error or a limit becomes a ``DefinitionError/invalidJSON(_:line:column:pointer:)``.
  init(_ bytes: [UInt8], limits: JSONLimits) throws(DefinitionError) {
    self.bytes = bytes
    self.limits = limits
    do {
      root = try JSONReader.read(bytes, limits: limits)
    } catch {
      let (line, column) = JSONPointer.location(of: error.offset, in: bytes)
      throw .invalidJSON(error.message, line: line, column: column, pointer: error.pointer)
    }
  }

  /// An error at `value`.
  func error(_ message: String, at value: JSONValue, _ pointer: String) -> DefinitionError {
    let (line, column) = JSONPointer.location(of: value.offset, in: bytes)
    return .invalidJSON(message, line: line, column: column, pointer: pointer)
  }

  /// An unbound guard or action at `value`.
  func unbound(_ what: String, at value: JSONValue, _ pointer: String) -> DefinitionError {
    let (line, column) = JSONPointer.location(of: value.offset, in: bytes)
    return .unboundName(what, at: pointer, line: line, column: column)
  }

  // MARK: References

  /// The tree of what a loader declared; a structural error is placed at the document's root.
  func tree<Model>(of store: BuilderStore<Model>) throws(DefinitionError) -> StateTree {
    do {
      return try StateTree(store)
    } catch {
      throw self.error(error.description, at: root, "")
    }
  }

  /// Resolves a reference the document makes (N4, N5); an unknown or ambiguous name is reported
  /// where it is written.
  func resolve(_ reference: StateReference, in tree: StateTree, at value: JSONValue, _ pointer: String) throws(DefinitionError)
    -> Int32
  {
    do {
      return try tree.resolve(reference, context: "'\(reference.text)'")
    } catch {
      throw self.error(error.description, at: value, pointer)
    }
  }

  // MARK: Typed access

  /// An object's members; with `allowed`, any other key is an error.
  func object(_ value: JSONValue, _ pointer: String, allowed: Set<String>? = nil) throws(DefinitionError) -> [JSONMember] {
    guard case .object(let members) = value.kind else {
      throw error("expected an object, found \(value.kindName)", at: value, pointer)
    }
    guard let allowed else { return members }
    for member in members where !allowed.contains(member.key) {
      throw error("unknown key '\(member.key)'; expected one of \(allowed.sorted().joined(separator: ", "))", at: member.value, pointer + JSONPointer.string([member.key]))
    }
    return members
  }

  func string(_ value: JSONValue, _ pointer: String) throws(DefinitionError) -> String {
    guard case .string(let text) = value.kind else {
      throw error("expected a string, found \(value.kindName)", at: value, pointer)
    }
    return text
  }

  func array(_ value: JSONValue, _ pointer: String) throws(DefinitionError) -> [JSONValue] {
    guard case .array(let elements) = value.kind else {
      throw error("expected an array, found \(value.kindName)", at: value, pointer)
    }
    return elements
  }

  func number(_ value: JSONValue, _ pointer: String) throws(DefinitionError) -> Double {
    guard case .number(let number) = value.kind else {
      throw error("expected a number, found \(value.kindName)", at: value, pointer)
    }
    return number
  }

  /// An object's members by key (the reader made the keys unique).
  func fields(_ members: [JSONMember]) -> [String: JSONValue] {
    Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
  }

  /// A string, or an array of strings (`"initial": "a"` or `["a", "b"]`).
  func strings(_ value: JSONValue, _ pointer: String) throws(DefinitionError) -> [String] {
    if case .string(let text) = value.kind { return [text] }
    var result: [String] = []
    for (index, element) in try array(value, pointer).enumerated() {
      result.append(try string(element, pointer + "/\(index)"))
    }
    return result
  }

  /// A name within ``JSONLimits/maxNameBytes``, not empty.
  func name(_ text: String, at value: JSONValue, _ pointer: String, what: String) throws(DefinitionError) -> String {
    if text.isEmpty { throw error("\(what) name is empty", at: value, pointer) }
    if text.utf8.count > limits.maxNameBytes {
      throw error("\(what) name has \(text.utf8.count) bytes, more than the limit of \(limits.maxNameBytes)", at: value, pointer)
    }
    return text
  }
}
