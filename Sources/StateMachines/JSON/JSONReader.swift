/// A small RFC 8259 reader. Foundation's parsers lose the order of an object's keys, which is a
/// definition's document order (Hierarchy N2), so the library reads JSON itself: UTF-8 only,
/// duplicate keys rejected, every error placed at a line and column with the JSON pointer of the
/// value being read, and the size and depth limits of ``JSONLimits`` checked as it goes.
struct JSONReader {
  /// A syntax error: what is wrong, where, and the pointer of the value it was reading.
  struct Failure: Error {
    let message: String
    let offset: Int
    let pointer: String
  }

  private let bytes: [UInt8]
  private let maxDepth: Int
  private var position = 0
  private var depth = 0
  /// The pointer's components down to the value being read.
  private var path: [String] = []
  /// The members of the objects being read, innermost last: an object's members are gathered
  /// here and copied out once into an array of their exact size, since growing an array per
  /// object, member by member, made most of the reader's allocations.
  private var memberStack: [JSONMember] = []
  /// Up to this many members, a duplicate key is found by comparing with the ones before it;
  /// a larger object keeps a set of its keys.
  private static let linearKeyLimit = 16

  /// Reads `bytes` as one JSON value.
  static func read(_ bytes: [UInt8], limits: JSONLimits) throws(Failure) -> JSONValue {
    guard bytes.count <= limits.maxBytes else {
      throw Failure(message: "the document has \(bytes.count) bytes, more than the limit of \(limits.maxBytes)", offset: 0, pointer: "")
    }
    var reader = JSONReader(bytes: bytes, maxDepth: limits.maxDepth)
    // A byte order mark is tolerated (RFC 8259 §8.1).
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
    reader.skipWhitespace()
    let value = try reader.readValue()
    reader.skipWhitespace()
    guard reader.position == bytes.count else { throw reader.failure("unexpected content after the document's value") }
    return value
  }

  private init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  // MARK: Values

  private mutating func readValue() throws(Failure) -> JSONValue {
    guard position < bytes.count else { throw failure("unexpected end of the document; expected a value") }
    let start = position
    switch bytes[position] {
    case UInt8(ascii: "{"): return try readObject()
    case UInt8(ascii: "["): return try readArray()
    case UInt8(ascii: "\""): return JSONValue(kind: .string(try readString()), offset: start)
    case UInt8(ascii: "t"): try readLiteral("true"); return JSONValue(kind: .bool(true), offset: start)
    case UInt8(ascii: "f"): try readLiteral("false"); return JSONValue(kind: .bool(false), offset: start)
    case UInt8(ascii: "n"): try readLiteral("null"); return JSONValue(kind: .null, offset: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONValue(kind: .number(try readNumber()), offset: start)
    default: throw failure("unexpected \(describe(bytes[position])); expected a value")
    }
  }

  private mutating func readObject() throws(Failure) -> JSONValue {
    let start = position
    try enter()
    position += 1
    let base = memberStack.count
    var keys: Set<String>? = nil
    skipWhitespace()
    if peek(UInt8(ascii: "}")) {
      position += 1
      depth -= 1
      return JSONValue(kind: .object([]), offset: start)
    }
    while true {
      skipWhitespace()
      guard peek(UInt8(ascii: "\"")) else { throw failure("expected a string key in an object") }
      let keyOffset = position
      let key = try readString()
      guard isNewKey(key, from: base, &keys) else {
        // Both places: the first member's value, and this key.
        let first = memberStack[base...].first { $0.key == key }.map { JSONPointer.location(of: $0.value.offset, in: bytes) }
        let firstText = first.map { " (the first is at \($0.line):\($0.column))" } ?? ""
        throw Failure(message: "duplicate key '\(key)'\(firstText)", offset: keyOffset, pointer: pointer(appending: key))
      }
      skipWhitespace()
      guard peek(UInt8(ascii: ":")) else { throw failure("expected ':' after key '\(key)'") }
      position += 1
      skipWhitespace()
      path.append(key)
      let value = try readValue()
      path.removeLast()
      memberStack.append(JSONMember(key: key, value: value))
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        position += 1
        continue
      }
      guard peek(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in an object") }
      position += 1
      depth -= 1
      let members = Array(memberStack[base...])
      memberStack.removeSubrange(base...)
      return JSONValue(kind: .object(members), offset: start)
    }
  }

  /// Whether `key` differs from the keys of the object whose members start at `base`; a large
  /// object's keys are kept in `keys`.
  private func isNewKey(_ key: String, from base: Int, _ keys: inout Set<String>?) -> Bool {
    if keys == nil {
      guard memberStack.count - base >= Self.linearKeyLimit else {
        return !memberStack[base...].contains { $0.key == key }
      }
      keys = Set(memberStack[base...].lazy.map(\.key))
    }
    return keys!.insert(key).inserted
  }

  private mutating func readArray() throws(Failure) -> JSONValue {
    let start = position
    try enter()
    position += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek(UInt8(ascii: "]")) {
      position += 1
      depth -= 1
      return JSONValue(kind: .array(elements), offset: start)
    }
    while true {
      skipWhitespace()
      path.append(String(elements.count))
      elements.append(try readValue())
      path.removeLast()
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        position += 1
        continue
      }
      guard peek(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in an array") }
      position += 1
      depth -= 1
      return JSONValue(kind: .array(elements), offset: start)
    }
  }

  private mutating func enter() throws(Failure) {
    depth += 1
    guard depth <= maxDepth else { throw failure("nesting deeper than the limit of \(maxDepth)") }
  }

  private mutating func readLiteral(_ literal: StaticString) throws(Failure) {
    let count = literal.utf8CodeUnitCount
    let matches = position + count <= bytes.count && (0..<count).allSatisfy { bytes[position + $0] == literal.utf8Start[$0] }
    guard matches else { throw failure("invalid literal; expected '\(literal)'") }
    position += count
  }

  // MARK: Numbers

  private mutating func readNumber() throws(Failure) -> Double {
    let start = position
    if peek(UInt8(ascii: "-")) { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else { throw failure("invalid number: expected a digit") }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) { throw failure("invalid number: leading zero") }
    } else {
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if peek(UInt8(ascii: ".")) {
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else { throw failure("invalid number: expected a digit after '.'") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
      position += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
      guard position < bytes.count, isDigit(bytes[position]) else { throw failure("invalid number: expected a digit in the exponent") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw Failure(message: "number \(text) is out of range", offset: start, pointer: pointer())
    }
    return value
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  // MARK: Strings

  private mutating func readString() throws(Failure) -> String {
    position += 1
    let start = position
    // The common case: no escapes, ASCII or valid UTF-8, copied once.
    var needsDecoding = false
    var hasHighBytes = false
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") {
        needsDecoding = true
        position += 1
      } else if byte < 0x20 {
        throw failure("control character U+\(hex(UInt32(byte))) in a string; escape it")
      } else if byte >= 0x80 {
        hasHighBytes = true
      }
      position += 1
    }
    guard position < bytes.count else { throw Failure(message: "unterminated string", offset: start - 1, pointer: pointer()) }
    let end = position
    position += 1
    if hasHighBytes { try validateUTF8(start..<end) }
    if !needsDecoding { return String(decoding: bytes[start..<end], as: UTF8.self) }
    return try decodeEscapes(start..<end)
  }

  private func decodeEscapes(_ range: Range<Int>) throws(Failure) -> String {
    var scalars = String.UnicodeScalarView()
    var utf8: [UInt8] = []
    var index = range.lowerBound
    func flush() {
      if !utf8.isEmpty {
        scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
        utf8.removeAll(keepingCapacity: true)
      }
    }
    while index < range.upperBound {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        index += 1
        continue
      }
      flush()
      let escape = bytes[index + 1]
      index += 2
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        let high = try hexQuad(at: index, end: range.upperBound)
        index += 4
        var value = high
        if (0xD800...0xDBFF).contains(high) {
          // A high surrogate must be followed by an escaped low one.
          guard index + 1 < range.upperBound, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw Failure(message: "unpaired surrogate \\u\(hex(high))", offset: index - 6, pointer: pointer())
          }
          let low = try hexQuad(at: index + 2, end: range.upperBound)
          guard (0xDC00...0xDFFF).contains(low) else {
            throw Failure(message: "unpaired surrogate \\u\(hex(high))", offset: index - 6, pointer: pointer())
          }
          index += 6
          value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(high) {
          throw Failure(message: "unpaired surrogate \\u\(hex(high))", offset: index - 6, pointer: pointer())
        }
        scalars.append(Unicode.Scalar(value)!)
      default:
        throw Failure(message: "invalid escape '\\\(describeScalar(escape))'", offset: index - 2, pointer: pointer())
      }
    }
    flush()
    return String(scalars)
  }

  private func hexQuad(at index: Int, end: Int) throws(Failure) -> UInt32 {
    guard index + 4 <= end else { throw Failure(message: "invalid \\u escape", offset: index - 2, pointer: pointer()) }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = bytes[index + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw Failure(message: "invalid \\u escape", offset: index - 2, pointer: pointer())
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Rejects malformed UTF-8: bad lead or continuation bytes, overlong forms, surrogates and
  /// code points past U+10FFFF.
  private func validateUTF8(_ range: Range<Int>) throws(Failure) {
    var index = range.lowerBound
    while index < range.upperBound {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var scalar: UInt32
      switch lead {
      case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F)
      case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F)
      case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07)
      default: throw Failure(message: "invalid UTF-8", offset: index, pointer: pointer())
      }
      guard index + length <= range.upperBound else { throw Failure(message: "invalid UTF-8", offset: index, pointer: pointer()) }
      for next in 1..<length {
        let byte = bytes[index + next]
        guard byte & 0xC0 == 0x80 else { throw Failure(message: "invalid UTF-8", offset: index, pointer: pointer()) }
        scalar = scalar << 6 | UInt32(byte & 0x3F)
      }
      let minimum: UInt32 = length == 3 ? 0x800 : length == 4 ? 0x10000 : 0x80
      guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
        throw Failure(message: "invalid UTF-8", offset: index, pointer: pointer())
      }
      index += length
    }
  }

  // MARK: Helpers

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

  private func failure(_ message: String) -> Failure {
    Failure(message: message, offset: min(position, bytes.count), pointer: pointer())
  }

  private func pointer(appending key: String? = nil) -> String {
    JSONPointer.string(key.map { path + [$0] } ?? path)
  }

  private func describe(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F ? "'\(describeScalar(byte))'" : "byte 0x\(hex(UInt32(byte)))"
  }

  private func describeScalar(_ byte: UInt8) -> String { String(UnicodeScalar(byte)) }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// JSON pointers (RFC 6901) and where an offset lies in a document.
enum JSONPointer {
  /// The pointer of a path of keys and indices: `~` and `/` escaped.
  static func string(_ components: [String]) -> String {
    var result = ""
    for component in components {
      result += "/"
      for character in component {
        switch character {
        case "~": result += "~0"
        case "/": result += "~1"
        default: result.append(character)
        }
      }
    }
    return result
  }

  /// The 1-based line and column (in Unicode scalars) of byte `offset`.
  static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in bytes[..<min(offset, bytes.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }
}
