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
  func error(_ message: String, at value: JSONValue, _ pointer: @autoclosure () -> String) -> DefinitionError {
    let (line, column) = JSONPointer.location(of: value.offset, in: bytes)
    return .invalidJSON(message, line: line, column: column, pointer: pointer())
  }

  /// An unbound guard or action at `value`.
  func unbound(_ what: String, at value: JSONValue, _ pointer: @autoclosure () -> String) -> DefinitionError {
    let (line, column) = JSONPointer.location(of: value.offset, in: bytes)
    return .unboundName(what, at: pointer(), line: line, column: column)
  }

  // MARK: References

  /// The tree of what a loader declared; a structural error is placed at its culprits, or else at
  /// the document's root.
  func tree<Model>(of store: BuilderStore<Model>, sites: JSONSourceMap) throws(DefinitionError) -> StateTree {
    do {
      return try StateTree(store)
    } catch {
      let located = locate(error, culprits: store.failureCulprits, sites: sites)
      if case .located = located { throw located }
      throw self.error(error.description, at: root, "")
    }
  }

  /// `error`, which compiling found, at where its culprits are written (``DefinitionError/located(_:at:)``);
  /// unchanged if none of them is in the document.
  func locate(_ error: DefinitionError, culprits: [DefinitionCulprit], sites: JSONSourceMap) -> DefinitionError {
    var locations: [DefinitionLocation] = []
    for culprit in culprits {
      guard let offset = sites.offset(of: culprit) else { continue }
      let (line, column) = JSONPointer.location(of: offset, in: bytes)
      let location = DefinitionLocation(line: line, column: column, pointer: pointer(toOffset: offset))
      if !locations.contains(location) { locations.append(location) }
    }
    return locations.isEmpty ? error : .located(error, at: locations)
  }

  /// Resolves a reference the document makes (N4, N5); an unknown or ambiguous name is reported
  /// where it is written.
  func resolve(
    _ reference: StateReference, in tree: StateTree, at value: JSONValue, _ pointer: @autoclosure () -> String
  ) throws(DefinitionError)
    -> Int32
  {
    do {
      return try tree.resolve(reference, context: "'\(reference.text)'")
    } catch {
      throw self.error(error.description, at: value, pointer())
    }
  }

  /// The RFC 6901 pointer of `value`, found from its offset: values start at distinct offsets,
  /// and a container's members at increasing ones. Made only for an error message.
  func pointer(to value: JSONValue) -> String { pointer(toOffset: value.offset) }

  /// The pointer of the value that starts at `offset`.
  func pointer(toOffset offset: Int) -> String {
    var keys: [String] = []
    var current = root
    while current.offset != offset {
      switch current.kind {
      case .object(let members):
        guard let member = members.last(where: { $0.value.offset <= offset }) else { return JSONPointer.string(keys) }
        keys.append(member.key)
        current = member.value
      case .array(let elements):
        guard let index = elements.lastIndex(where: { $0.offset <= offset }) else { return JSONPointer.string(keys) }
        keys.append(String(index))
        current = elements[index]
      default:
        return JSONPointer.string(keys)
      }
    }
    return JSONPointer.string(keys)
  }

  // MARK: Typed access

  /// An object's members; with `allowed`, any other key is an error.
  func object(
    _ value: JSONValue, _ pointer: @autoclosure () -> String, allowed: Set<String>? = nil
  ) throws(DefinitionError) -> [JSONMember] {
    guard case .object(let members) = value.kind else {
      throw error("expected an object, found \(value.kindName)", at: value, pointer())
    }
    guard let allowed else { return members }
    for member in members where !allowed.contains(member.key) {
      throw error(
        "unknown key '\(member.key)'; expected one of \(allowed.sorted().joined(separator: ", "))", at: member.value,
        pointer() + JSONPointer.string([member.key]))
    }
    return members
  }

  func string(_ value: JSONValue, _ pointer: @autoclosure () -> String) throws(DefinitionError) -> String {
    guard case .string(let text) = value.kind else {
      throw error("expected a string, found \(value.kindName)", at: value, pointer())
    }
    return text
  }

  func array(_ value: JSONValue, _ pointer: @autoclosure () -> String) throws(DefinitionError) -> [JSONValue] {
    guard case .array(let elements) = value.kind else {
      throw error("expected an array, found \(value.kindName)", at: value, pointer())
    }
    return elements
  }

  func number(_ value: JSONValue, _ pointer: @autoclosure () -> String) throws(DefinitionError) -> Double {
    guard case .number(let number) = value.kind else {
      throw error("expected a number, found \(value.kindName)", at: value, pointer())
    }
    return number
  }

  /// An object's members by key (the reader made the keys unique).
  func fields(_ members: [JSONMember]) -> JSONFields { JSONFields(members: members) }

  /// A string, or an array of strings (`"initial": "a"` or `["a", "b"]`).
  func strings(_ value: JSONValue, _ pointer: @autoclosure () -> String) throws(DefinitionError) -> [String] {
    if case .string(let text) = value.kind { return [text] }
    var result: [String] = []
    for (index, element) in try array(value, pointer()).enumerated() {
      result.append(try string(element, pointer() + "/\(index)"))
    }
    return result
  }

  /// A name within ``JSONLimits/maxNameBytes``, not empty.
  func name(
    _ text: String, at value: JSONValue, _ pointer: @autoclosure () -> String, what: String
  ) throws(DefinitionError) -> String {
    if text.isEmpty { throw error("\(what) name is empty", at: value, pointer()) }
    if text.utf8.count > limits.maxNameBytes {
      throw error(
        "\(what) name has \(text.utf8.count) bytes, more than the limit of \(limits.maxNameBytes)", at: value, pointer())
    }
    return text
  }
}

/// An object's members looked up by key. A state object has a handful of keys, so a scan beats
/// building a dictionary for each of ten thousand states.
struct JSONFields {
  let members: [JSONMember]

  subscript(key: String) -> JSONValue? {
    for member in members where member.key == key { return member.value }
    return nil
  }
}
