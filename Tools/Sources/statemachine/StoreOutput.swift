import Foundation

/// Prints `object` as one line of JSON, keys sorted (`--json`: one object per line).
func printJSONLine(_ object: [String: Any]) {
  let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  print(String(decoding: data, as: UTF8.self))
}

/// A time as `--json` and the text output show it: ISO 8601 in UTC, with milliseconds.
func timestamp(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  return formatter.string(from: date)
}

/// `value`, or JSON `null`.
func orNull(_ value: Any?) -> Any {
  value ?? NSNull()
}

/// A JSON value given on the command line (`store fire --payload`), stored with the step's
/// history as the event's payload.
enum JSONPayload: Codable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONPayload])
  case object([String: JSONPayload])

  /// Parses `text`; a one-line error when it is not JSON.
  static func parse(_ text: String) throws -> JSONPayload {
    do {
      return try JSONDecoder().decode(JSONPayload.self, from: Data(text.utf8))
    } catch {
      throw ToolError("error: --payload is not JSON: \(text)")
    }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONPayload].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONPayload].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

/// A stored JSON text as a value to embed in `--json` output (the text itself if it does not parse).
func embeddedJSON(_ data: Data?) -> Any {
  guard let data else { return NSNull() }
  return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    ?? String(decoding: data, as: UTF8.self)
}
