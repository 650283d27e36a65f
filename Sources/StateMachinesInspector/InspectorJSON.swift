#if Inspector
import Foundation

/// A JSON value: the payload of an event sent from the page, and the fields of the records the
/// server streams. `Sendable` and `Encodable`, so that a payload sent by the inspector shows as
/// the JSON it came as.
public enum InspectorJSON: Sendable, Hashable, Codable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([InspectorJSON])
  case object([String: InspectorJSON])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([InspectorJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: InspectorJSON].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The value as compact JSON on one line, keys sorted: what goes on an SSE `data:` line.
  public var description: String {
    var text = ""
    write(to: &text)
    return text
  }

  private func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .number(let value):
      if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        text += String(Int64(value))
      } else if value.isFinite {
        text += "\(value)"
      } else {
        text += "null"
      }
    case .string(let value): Self.quote(value, into: &text)
    case .array(let values):
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += "," }
        value.write(to: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { text += "," }
        Self.quote(key, into: &text)
        text += ":"
        members[key]!.write(to: &text)
      }
      text += "}"
    }
  }

  /// A JSON string literal; control characters, quotes, backslashes and the line separators
  /// U+2028/U+2029 escaped (the text goes into HTML-adjacent contexts and SSE lines).
  private static func quote(_ string: String, into text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{2028}", "\u{2029}": text += String(format: "\\u%04x", scalar.value)
      default:
        if scalar.value < 0x20 {
          text += String(format: "\\u%04x", scalar.value)
        } else {
          text.unicodeScalars.append(scalar)
        }
      }
    }
    text += "\""
  }
}

extension InspectorJSON {
  /// A string, or `null` for `nil`.
  init(_ string: String?) { self = string.map { .string($0) } ?? .null }

  /// An array of strings.
  init(_ strings: [String]) { self = .array(strings.map { .string($0) }) }

  /// A whole number.
  init(_ number: some BinaryInteger) { self = .number(Double(number)) }

  /// The string, if the value is one.
  var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }
}
#endif
