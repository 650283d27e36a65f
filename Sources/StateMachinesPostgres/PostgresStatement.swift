// One SQL statement with its bound values: placeholders `$n` are numbered as values are bound,
// after any values the application's own columns already bound.

#if PostgreSQL
import Foundation
import PostgresNIO

/// A statement being built: its text and its binds.
struct PostgresStatement {
  var sql = ""
  var binds: PostgresBindings

  init(_ sql: String = "", binds: PostgresBindings = PostgresBindings()) {
    self.sql = sql
    self.binds = binds
  }

  /// Binds `value` and returns its placeholder.
  mutating func bind<Value: PostgresThrowingDynamicTypeEncodable>(_ value: Value) -> String {
    // The store binds strings, integers, booleans, dates, doubles and UUIDs, which never throw.
    try! binds.append(value)
    return "$\(binds.count)"
  }

  /// Binds `value` or NULL and returns its placeholder.
  mutating func bind<Value: PostgresThrowingDynamicTypeEncodable>(_ value: Value?) -> String {
    if let value { return bind(value) }
    binds.appendNull()
    return "$\(binds.count)"
  }

  var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}

extension String {
  /// The name as a quoted SQL identifier.
  var quotedIdentifier: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
#endif
