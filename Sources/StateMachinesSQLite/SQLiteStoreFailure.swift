// GRDB's errors as the store's typed errors: a busy database is a locked row (P3), anything
// else the database's own failure.

#if SQLite
import GRDB
import StateMachines

/// A failure of a SQLite store that is not the database's own.
public struct SQLiteStoreFailure: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String

  init(_ description: String) {
    self.description = description
  }

  /// `error` as a store error about the row with `key`.
  static func map(_ error: any Error, key: String) -> StateMachineStoreError {
    if let error = error as? StateMachineStoreError { return error }
    if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
      return .locked(id: key)
    }
    return .database(error)
  }

  /// Runs `body`, mapping what it throws.
  static func database<T>(_ key: String, _ body: () throws -> T) throws(StateMachineStoreError) -> T {
    do {
      return try body()
    } catch {
      throw map(error, key: key)
    }
  }
}

extension Database {
  /// Runs a statement the connection compiles once and keeps: a step's statements repeat.
  func cached(_ sql: String, _ arguments: StatementArguments = []) throws {
    try cachedStatement(sql: sql).execute(arguments: arguments)
  }
}
#endif
