// The values the store binds itself (keys, states, versions, dates), kept as values until the
// statement is sent, and then appended as binary binds whether it goes prepared or unprepared
// (Many application servers, prepared statements).

#if PostgreSQL
import Foundation
import PostgresNIO

/// A value the store binds.
protocol PostgresStoreValue: Sendable {
  /// Appends the value as a binary bind.
  func append(to binds: inout PostgresBindings)
}

extension PostgresStoreValue where Self: PostgresNonThrowingEncodable {
  func append(to binds: inout PostgresBindings) { binds.append(self) }
}

/// SQL's NULL.
struct PostgresNull: PostgresStoreValue {
  func append(to binds: inout PostgresBindings) { binds.appendNull() }
}

extension String: PostgresStoreValue {}
extension Int: PostgresStoreValue {}
extension Int64: PostgresStoreValue {}
extension Bool: PostgresStoreValue {}
extension Double: PostgresStoreValue {}
extension UUID: PostgresStoreValue {}
extension Date: PostgresStoreValue {}
extension Array: PostgresStoreValue where Element == String {}
#endif
