import StateMachines

/// A `cond` the import evaluates itself (Hierarchy §8): `true`, `false` and `In('id')`,
/// combined with `!`, `&&`, `||` and parentheses. Anything else is looked up in the bindings.
indirect enum SCXMLCondition: Equatable {
  case constant(Bool)
  case inState(String)
  case not(SCXMLCondition)
  case and(SCXMLCondition, SCXMLCondition)
  case or(SCXMLCondition, SCXMLCondition)

  /// Parses `text`, or returns `nil` if it is not in the supported subset. (A static function:
  /// a failable initializer assigning `self` leaked the enum's box, as the fuzzer's leak check
  /// found.)
  static func parse(_ text: String) -> SCXMLCondition? {
    var parser = Parser(Array(text.unicodeScalars))
    guard let condition = parser.parseOr(), parser.atEnd else { return nil }
    return condition
  }

  /// The ids of the states it tests.
  var stateIDs: [String] {
    switch self {
    case .constant: return []
    case .inState(let id): return [id]
    case .not(let inner): return inner.stateIDs
    case .and(let a, let b), .or(let a, let b): return a.stateIDs + b.stateIDs
    }
  }

  /// The library's condition, each id replaced by `path(id)`.
  func stateCondition(_ path: (String) -> String) -> StateCondition {
    switch self {
    case .constant(let value): return .constant(value)
    case .inState(let id): return .inState(path(id))
    case .not(let inner): return .not(inner.stateCondition(path))
    case .and(let a, let b): return .and(a.stateCondition(path), b.stateCondition(path))
    case .or(let a, let b): return .or(a.stateCondition(path), b.stateCondition(path))
    }
  }

  /// Evaluates it with `isActive` answering `In` (as the library's ``StateMachines/StateCondition``).
  func evaluate(_ isActive: (String) -> Bool) -> Bool {
    stateCondition { $0 }.holds(isActive)
  }

  /// A recursive-descent parser over the condition's characters.
  private struct Parser {
    let scalars: [Unicode.Scalar]
    var position = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var atEnd: Bool {
      mutating get {
        skipSpaces()
        return position == scalars.count
      }
    }

    mutating func skipSpaces() {
      while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
    }

    mutating func take(_ token: String) -> Bool {
      skipSpaces()
      let expected = Array(token.unicodeScalars)
      guard position + expected.count <= scalars.count, Array(scalars[position..<position + expected.count]) == expected
      else { return false }
      position += expected.count
      return true
    }

    mutating func parseOr() -> SCXMLCondition? {
      guard var left = parseAnd() else { return nil }
      while take("||") {
        guard let right = parseAnd() else { return nil }
        left = .or(left, right)
      }
      return left
    }

    mutating func parseAnd() -> SCXMLCondition? {
      guard var left = parseUnary() else { return nil }
      while take("&&") {
        guard let right = parseUnary() else { return nil }
        left = .and(left, right)
      }
      return left
    }

    mutating func parseUnary() -> SCXMLCondition? {
      if take("!") { return parseUnary().map { .not($0) } }
      if take("(") {
        guard let inner = parseOr(), take(")") else { return nil }
        return inner
      }
      if take("true") { return .constant(true) }
      if take("false") { return .constant(false) }
      if take("In(") {
        skipSpaces()
        guard position < scalars.count, scalars[position] == "'" || scalars[position] == "\"" else { return nil }
        let quote = scalars[position]
        position += 1
        let start = position
        while position < scalars.count, scalars[position] != quote { position += 1 }
        guard position < scalars.count else { return nil }
        let id = String(String.UnicodeScalarView(scalars[start..<position]))
        position += 1
        guard take(")") else { return nil }
        return .inState(id)
      }
      return nil
    }
  }
}
