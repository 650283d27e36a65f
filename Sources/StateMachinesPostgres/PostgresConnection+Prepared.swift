// A statement of the store sent prepared at the protocol level: Parse once per connection (by
// postgres-nio, the first time the name is executed there), then Bind and Execute with binary
// binds, one statement per Sync. Its outcome is its own answer: nothing else goes in its flight,
// so a failure of another statement (a `DEALLOCATE` of a statement the session lost) cannot be
// taken for the fire's, nor hide that the fire committed (Many application servers, prepared
// statements).
//
// postgres-nio (1.33) prepares only `PostgresPreparedStatement`s, whose name and SQL are static,
// fixed per Swift type; the store's SQL is known at run time. ``PostgresRuntimeStatement`` is the
// adapter: one type whose static name and SQL are read from a task-local value bound around the
// call. postgres-nio reads them in `execute`, in the caller's task (and again there to describe a
// failure), so each call sees its own.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO

/// A statement known at run time, as postgres-nio's `PostgresPreparedStatement`.
struct PostgresRuntimeStatement: PostgresPreparedStatement {
  /// The statement's name and text, bound for the duration of one `execute`.
  struct Text: Sendable {
    let name: String
    let sql: String
  }

  @TaskLocal static var text = Text(name: "", sql: "")

  static var name: String { text.name }
  static var sql: String { text.sql }
  /// None: each placeholder carries its type in the text (`$1::TEXT`).
  static var bindingDataTypes: [PostgresDataType] { [] }

  let binds: PostgresBindings

  func makeBindings() throws -> PostgresBindings { binds }
  func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PostgresConnection {
  /// The rows of `statement`, prepared in `preparedStatements` when it can be (its binds are all
  /// the store's) and the store prepares statements; otherwise sent unprepared. `autocommit`
  /// says that no transaction is open on the connection: statements the store no longer keeps
  /// are then deallocated, each on its own, before this one.
  ///
  /// A server's refusal is rethrown as it came. The refusals that say the statement did not run
  /// (`26000`: the session lost it; `0A000`: a returned column changed its type) make the store
  /// forget it, so that a retry prepares it anew under a new name.
  func rows(
    of statement: PostgresStatement, preparedIn preparedStatements: PostgresPreparedStatements?, autocommit: Bool,
    logger: Logger
  ) async throws -> [PostgresRow] {
    guard let preparedStatements, statement.isPreparable else {
      return try await send(statement.query, logger: logger).rows()
    }
    // A closed connection may never answer a statement sent there (``send(_:logger:)``).
    if isClosed { throw PostgresStoreFailure(PostgresStoreFailure.closedMessage, sqlState: PostgresStoreFailure.connectionFailure) }
    let sql = statement.sql
    let use = preparedStatements.use(sql, on: self, deallocating: autocommit)
    for name in use.deallocates {
      // Its answer is nobody's: a session that lost the statement refuses it, and nothing else.
      _ = send(PostgresQuery(unsafeSQL: "DEALLOCATE \(name)"), logger: logger)
    }
    do {
      return try await PostgresRuntimeStatement.$text.withValue(.init(name: use.name, sql: sql)) {
        var rows: [PostgresRow] = []
        for try await row in try await execute(PostgresRuntimeStatement(binds: statement.binds), logger: logger) {
          rows.append(row)
        }
        return rows
      }
    } catch {
      switch PostgresStoreFailure.ServerReport(error)?.sqlState {
      case PostgresStoreFailure.invalidStatementName:
        // Gone: and so, most likely, is every statement prepared in the session.
        preparedStatements.forgetAll(on: self)
      case PostgresStoreFailure.featureNotSupported:
        preparedStatements.forget(sql, name: use.name, on: self)
      default:
        // postgres-nio keeps a failed preparation's error under its name for good: a statement
        // that failed the first time it was sent is prepared under a new name next time.
        if use.isNew { preparedStatements.forget(sql, name: use.name, on: self) }
      }
      throw error
    }
  }
}
#endif
