// One SQL statement with its bound values: placeholders `$n` are numbered as values are bound,
// after any values the application's own columns already bound.
//
// A placeholder the store binds carries its type (`$3::TEXT`), so that the statement means the
// same prepared once per connection, where PostgreSQL infers the parameters' types from the text
// alone, as sent unprepared with its binds' types (Many application servers, prepared statements).

#if PostgreSQL
import Foundation
import PostgresNIO

/// A statement being built: its text and its binds.
struct PostgresStatement: Sendable {
  var sql = ""
  private(set) var binds: PostgresBindings
  /// The binds as values, while every one of them is the store's own and can be written as a
  /// literal: what an `EXECUTE` of the prepared statement passes. `nil` when the application's own
  /// columns bound values whose types the text does not say; such a statement is sent unprepared.
  private(set) var values: [any PostgresLiteral]?

  init(_ sql: String = "") {
    self.sql = sql
    self.binds = PostgresBindings()
    self.values = []
  }

  /// A statement whose first binds are the application's own columns.
  init(applicationBinds: PostgresBindings) {
    self.binds = applicationBinds
    self.values = applicationBinds.count == 0 ? [] : nil
  }

  /// Binds `value` and returns its placeholder, typed.
  mutating func bind<Value: PostgresNonThrowingEncodable & PostgresLiteral>(_ value: Value) -> String {
    binds.append(value)
    if values != nil, value.hasLiteral { values?.append(value) } else { values = nil }
    return placeholder(Value.psqlType)
  }

  /// Binds `value` or NULL and returns its placeholder, typed.
  mutating func bind<Value: PostgresNonThrowingEncodable & PostgresLiteral>(_ value: Value?) -> String {
    if let value { return bind(value) }
    binds.appendNull()
    values?.append(PostgresNull())
    return placeholder(Value.psqlType)
  }

  private func placeholder(_ type: PostgresDataType) -> String {
    "$\(binds.count)::\(type.knownSQLName ?? "TEXT")"
  }

  var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}

extension String {
  /// The name as a quoted SQL identifier.
  var quotedIdentifier: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
#endif
