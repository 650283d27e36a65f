// One SQL statement with its bound values: placeholders `$n` are numbered as values are bound,
// after any values the application's own columns already bound.
//
// A placeholder the store binds carries its type (`$3::TEXT`), so that the statement means the
// same prepared once per connection, where PostgreSQL infers the parameters' types from the text
// alone, as sent unprepared with its binds' types (Many application servers, prepared statements).
// The store's values are kept as they are and encoded as binary binds when the statement is sent.

#if PostgreSQL
import Foundation
import PostgresNIO

/// A statement being built: its text and its binds.
struct PostgresStatement: Sendable {
  var sql = ""
  /// The application's own columns' binds, first: `$1…$n`.
  private let applicationBinds: PostgresBindings
  /// The store's own binds, after the application's.
  private(set) var storeValues: [any PostgresStoreValue] = []

  init(_ sql: String = "") {
    self.sql = sql
    self.applicationBinds = PostgresBindings()
  }

  /// A statement whose first binds are the application's own columns.
  init(applicationBinds: PostgresBindings) {
    self.applicationBinds = applicationBinds
  }

  /// Binds `value` and returns its placeholder, typed.
  mutating func bind<Value: PostgresNonThrowingEncodable & PostgresStoreValue>(_ value: Value) -> String {
    storeValues.append(value)
    return placeholder(Value.psqlType)
  }

  /// Binds `value` or NULL and returns its placeholder, typed.
  mutating func bind<Value: PostgresNonThrowingEncodable & PostgresStoreValue>(_ value: Value?) -> String {
    storeValues.append(value.map { $0 as any PostgresStoreValue } ?? PostgresNull())
    return placeholder(Value.psqlType)
  }

  private func placeholder(_ type: PostgresDataType) -> String {
    "$\(applicationBinds.count + storeValues.count)::\(type.knownSQLName ?? "TEXT")"
  }

  /// The number of binds.
  var bindCount: Int { applicationBinds.count + storeValues.count }

  /// Whether the statement is prepared once per connection: it has binds, all of them the
  /// store's, whose placeholders carry their types. Not when the application's binds have types
  /// the text does not say, nor for a statement without binds (a command: BEGIN, SAVEPOINT).
  var isPreparable: Bool { applicationBinds.count == 0 && !storeValues.isEmpty }

  /// The binds, encoded.
  var binds: PostgresBindings {
    var binds = applicationBinds
    for value in storeValues { value.append(to: &binds) }
    return binds
  }

  /// The statement to send unprepared, with its binds encoded.
  var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}

extension String {
  /// The name as a quoted SQL identifier.
  var quotedIdentifier: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
#endif
