/// How state and event names become Swift identifiers (Semantics §Names).
enum NameRules {
  /// The lowerCamelCase identifier for `name`: `in_progress` → `inProgress`, `Open` → `open`.
  /// `nil` if `name` cannot form one (empty, or characters other than ASCII letters, digits,
  /// `_`, `-` and spaces, or a leading digit).
  static func identifier(for name: String) -> String? {
    let parts = name.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " })
    guard !parts.isEmpty,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }),
      let first = parts[0].first, first.isLetter
    else { return nil }
    var result = parts[0].prefix(1).lowercased() + parts[0].dropFirst()
    for part in parts.dropFirst() {
      result += part.prefix(1).uppercased() + part.dropFirst()
    }
    return result
  }

  /// `identifier` with its first letter uppercased, to follow a prefix: `isInProgress`.
  static func capitalized(_ identifier: String) -> String {
    identifier.prefix(1).uppercased() + identifier.dropFirst()
  }

  /// Words that cannot name a function without backticks.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "operator", "private", "precedencegroup", "protocol",
    "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
    "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
    "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false", "is", "nil",
    "self", "super", "throws", "true", "try",
  ]

  /// The declared name closest to `name`, if it is close enough to be a typo.
  static func closest(to name: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(1, min(name.count, best.0.count) / 3) ? best.0 : nil
  }

  /// Edit distance counting an insertion, a deletion, a substitution or a swap of two
  /// neighbouring characters as one edit (`strat` is one edit from `start`).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // distance[i][j]: between the first i characters of a and the first j of b.
    var distance = (0...a.count).map { i in (0...b.count).map { j in i == 0 ? j : (j == 0 ? i : 0) } }
    for i in 1...a.count {
      for j in 1...b.count {
        let substitution = distance[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        distance[i][j] = min(distance[i - 1][j] + 1, distance[i][j - 1] + 1, substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          distance[i][j] = min(distance[i][j], distance[i - 2][j - 2] + 1)
        }
      }
    }
    return distance[a.count][b.count]
  }
}
