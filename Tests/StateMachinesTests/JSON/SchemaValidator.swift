import Foundation

/// A small JSON Schema (draft 2020-12) validator for the keywords the format's schema uses:
/// `type`, `const`, `enum`, `pattern`, `minLength`, `maxLength`, `minItems`, `minProperties`,
/// `required`, `properties`, `additionalProperties`, `propertyNames`, `items`, `oneOf`, `not`,
/// `exclusiveMinimum`, `maximum`, `$ref` into `$defs`, and boolean schemas. Enough to check that
/// the schema and the loader agree; not a general validator.
struct SchemaValidator {
  let root: [String: Any]

  init(_ data: Data) throws {
    root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
  }

  func isValid(_ instance: Any) -> Bool { validate(instance, against: root) }

  private func validate(_ instance: Any, against schemaValue: Any) -> Bool {
    if let flag = schemaValue as? Bool { return flag }
    guard let schema = schemaValue as? [String: Any] else { return false }
    if let reference = schema["$ref"] as? String {
      let name = String(reference.dropFirst("#/$defs/".count))
      guard let definitions = root["$defs"] as? [String: Any], let target = definitions[name] else { return false }
      if !validate(instance, against: target) { return false }
    }
    if let type = schema["type"] as? String, !Self.has(type: type, instance) { return false }
    if let constant = schema["const"], !Self.equal(constant, instance) { return false }
    if let values = schema["enum"] as? [Any], !values.contains(where: { Self.equal($0, instance) }) { return false }
    if let string = instance as? String {
      if let pattern = schema["pattern"] as? String,
        string.range(of: pattern, options: .regularExpression) == nil
      {
        return false
      }
      if let minimum = schema["minLength"] as? Int, string.count < minimum { return false }
      if let maximum = schema["maxLength"] as? Int, string.count > maximum { return false }
    }
    if let number = Self.number(instance) {
      if let bound = schema["exclusiveMinimum"] as? Double, number <= bound { return false }
      if let bound = schema["maximum"] as? Double, number > bound { return false }
    }
    if let array = instance as? [Any] {
      if let minimum = schema["minItems"] as? Int, array.count < minimum { return false }
      if let items = schema["items"], !array.allSatisfy({ validate($0, against: items) }) { return false }
    }
    if let object = instance as? [String: Any] {
      if let minimum = schema["minProperties"] as? Int, object.count < minimum { return false }
      if let required = schema["required"] as? [String], !required.allSatisfy({ object[$0] != nil }) { return false }
      let properties = schema["properties"] as? [String: Any] ?? [:]
      for (key, value) in object {
        if let names = schema["propertyNames"], !validate(key, against: names) { return false }
        if let property = properties[key] {
          if !validate(value, against: property) { return false }
        } else if let additional = schema["additionalProperties"], !validate(value, against: additional) {
          return false
        }
      }
    }
    if let alternatives = schema["oneOf"] as? [Any],
      alternatives.filter({ validate(instance, against: $0) }).count != 1
    {
      return false
    }
    if let negated = schema["not"], validate(instance, against: negated) { return false }
    return true
  }

  /// A number (booleans are not tested by the schema, so not told apart here).
  private static func number(_ value: Any) -> Double? {
    if value is String { return nil }
    return (value as? NSNumber)?.doubleValue
  }

  private static func has(type: String, _ instance: Any) -> Bool {
    switch type {
    case "object": return instance is [String: Any]
    case "array": return instance is [Any]
    case "string": return instance is String
    case "number": return number(instance) != nil
    case "boolean": return instance is Bool
    default: return false
    }
  }

  private static func equal(_ a: Any, _ b: Any) -> Bool {
    if let a = a as? String, let b = b as? String { return a == b }
    // Booleans (`"const": false`); JSONSerialization gives them as NSNumber.
    if let a = a as? NSNumber, let b = b as? NSNumber { return a == b }
    return false
  }
}
