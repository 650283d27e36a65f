// The store's bound values as SQL literals, for `EXECUTE name(…)` of a statement prepared with
// `PREPARE` (Many application servers, prepared statements): PostgreSQL does not take protocol
// parameters in an `EXECUTE`, so its arguments are written into its text. Each literal is
// coerced to the parameter's type, which the prepared text gives (`$1::TEXT`).

#if PostgreSQL
import Foundation
import PostgresNIO

/// A value the store binds: as a literal PostgreSQL reads back to the same value, or as a binary
/// bind.
protocol PostgresLiteral: Sendable {
  /// The literal.
  var sqlLiteral: String { get }
  /// Whether ``sqlLiteral`` exists: a string with a NUL cannot be in a statement's text (the
  /// statement is then sent unprepared, and the server refuses the value as it always did).
  var hasLiteral: Bool { get }
  /// Appends the value as a binary bind.
  func append(to binds: inout PostgresBindings)
}

extension PostgresLiteral {
  var hasLiteral: Bool { true }
}

extension PostgresLiteral where Self: PostgresNonThrowingEncodable {
  func append(to binds: inout PostgresBindings) { binds.append(self) }
}

/// SQL's NULL.
struct PostgresNull: PostgresLiteral {
  var sqlLiteral: String { "NULL" }
  func append(to binds: inout PostgresBindings) { binds.appendNull() }
}

extension String: PostgresLiteral {
  /// Dollar-quoted with a tag that appears nowhere in the string followed by the tag but at its
  /// end (a string ending in `$sm` would otherwise close early): no character of it is an
  /// escape, whatever `standard_conforming_strings` says.
  var sqlLiteral: String {
    // Most strings the store binds (keys, names) hold no `$`: the first tag is then safe, and
    // the search below, which Foundation runs on Linux, is skipped.
    guard utf8.contains(UInt8(ascii: "$")) else { return "$sm$" + self + "$sm$" }
    var tag = "$sm$"
    var suffix = 0
    while (self + tag.dropLast()).contains(tag) {
      suffix += 1
      tag = "$sm\(suffix)$"
    }
    return tag + self + tag
  }

  var hasLiteral: Bool { !utf8.contains(0) }
}

extension Int: PostgresLiteral {
  var sqlLiteral: String { String(self) }
}

extension Int64: PostgresLiteral {
  var sqlLiteral: String { String(self) }
}

extension Bool: PostgresLiteral {
  var sqlLiteral: String { self ? "TRUE" : "FALSE" }
}

extension Double: PostgresLiteral {
  /// Swift's shortest representation that reads back to the same double, as PostgreSQL's
  /// `float8` input does.
  var sqlLiteral: String { "'\(self)'" }
  var hasLiteral: Bool { isFinite }
}

extension UUID: PostgresLiteral {
  var sqlLiteral: String { "'\(uuidString)'" }
}

extension Date: PostgresLiteral {
  /// The microseconds since 2000-01-01 that postgres-nio binds for the date, added to that
  /// instant: the same `timestamptz` whichever way the value travels.
  var sqlLiteral: String {
    let microseconds = Int64(timeIntervalSince(Date(timeIntervalSince1970: 946_684_800)) * 1_000_000)
    return "(TIMESTAMPTZ '2000-01-01 00:00:00+00' + \(microseconds) * INTERVAL '1 microsecond')"
  }
}

extension Array: PostgresLiteral where Element == String {
  var sqlLiteral: String { isEmpty ? "'{}'" : "ARRAY[" + map(\.sqlLiteral).joined(separator: ", ") + "]" }
  var hasLiteral: Bool { allSatisfy(\.hasLiteral) }
}
#endif
