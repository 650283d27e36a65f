// How a PostgreSQL store talks to its server: the settings that depend on what sits between the
// application and PostgreSQL (a pooler), and on how the application wants its fires sent (Many
// application servers).

#if PostgreSQL
import Foundation

/// The settings of a PostgreSQL store's connection use.
///
/// The defaults suit a direct connection, a session-pooling pooler, and PgBouncer 1.21 or later
/// with `max_prepared_statements` above 0. Behind a transaction-pooling PgBouncer before 1.21
/// (or with `max_prepared_statements = 0`), set ``pgbouncer``, or read it from the connection
/// string with ``init(connectionString:)``:
///
/// ```swift
/// let options = PostgresStoreOptions(connectionString: "postgres://app@pooler/shop?pgbouncer=true")
/// let orders = PostgresStateMachineStore<Order>(client, options: options)
/// ```
public struct PostgresStoreOptions: Sendable, Hashable {
  /// Whether the store plans each of its statements once per connection (prepared at the
  /// protocol level), rather than on every call. Ignored with ``pgbouncer``.
  public var preparesStatements: Bool
  /// Whether fires by id of an event that runs no code, arriving while the store's fast
  /// statements are in flight, share the next statement (each still its own step on its own row).
  public var batchesFires: Bool
  /// The connection-string convention `pgbouncer=true`: a transaction-pooling pooler gives each
  /// transaction whichever server session is free, so the store prepares no named statement and
  /// its schedulers do not `LISTEN` (they poll). Every step keeps its rules (Persistence P1–P16).
  public var pgbouncer: Bool
  /// How long a step waits for a row another writer holds before it fails with
  /// `StateMachineStoreError.locked(id:)`: `SET LOCAL lock_timeout` in the step's transaction,
  /// which works behind any pooler (a pooler refuses `lock_timeout` as a startup parameter).
  /// With a timeout, every fire takes the locked step: the single-statement fast path runs
  /// outside a transaction, where the setting cannot be given. `nil`: the server's own setting.
  public var lockTimeout: Duration?

  /// The settings; by default statements are prepared, fires batched, no pooler assumed, and the
  /// server's lock timeout applies.
  public init(
    preparesStatements: Bool = true, batchesFires: Bool = true, pgbouncer: Bool = false, lockTimeout: Duration? = nil
  ) {
    self.preparesStatements = preparesStatements
    self.batchesFires = batchesFires
    self.pgbouncer = pgbouncer
    self.lockTimeout = lockTimeout
  }

  /// The defaults, with ``pgbouncer`` set when the `postgres://` URL's query says
  /// `pgbouncer=true` (Prisma's and others' convention; `false`, `0` or its absence leave it off).
  public init(connectionString: String) {
    self.init()
    let value = URLComponents(string: connectionString)?.queryItems?.last { $0.name == "pgbouncer" }?.value
    pgbouncer = value.map { ["true", "1", "yes", "on"].contains($0.lowercased()) } ?? false
  }

  /// Whether the store prepares named statements.
  var prepares: Bool { preparesStatements && !pgbouncer }

  /// `lockTimeout` as the setting's value in milliseconds, at least 1 (0 would mean no timeout).
  var lockTimeoutMilliseconds: Int64? {
    lockTimeout.map { max(1, $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
  }
}
#endif
