// Concurrent fast fires of one event share a statement (Many application servers, fires batched
// under load): a fire that finds the store's flights busy waits, and the next flight takes every
// fire waiting then, up to a limit, as one statement. With nothing in flight a fire leaves at once,
// a batch of one: batching adds no wait, it only gathers what would have waited for a connection
// anyway. What a round trip costs the client (the pool, the
// event loop, the tasks) is paid once per batch instead of once per fire.
//
// Each flight is led by the first fire of its batch, in that fire's task; when it lands, the
// leader hands the next batch to its first fire and the answers to the others. No two fires of
// one key are in flight at once: a second waits for the next batch, so each fire of a key sees
// the one before it committed.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines

/// The fires of one event waiting for, or riding in, the store's fast statements.
///
/// `@unchecked Sendable`: every `var` is read and written only under `lock`.
final class PostgresFastBatcher: @unchecked Sendable {
  /// One fire: its key, its payload as JSON text, the version its row must be at (P4), and
  /// where its answer goes.
  struct Fire: Sendable {
    let key: String
    let payload: String?
    let expectedVersion: Int64?
    let continuation: CheckedContinuation<Turn, Never>
  }

  /// What a fire gets: the batch it leads, or its answer.
  enum Turn: Sendable {
    case lead([Fire])
    case answer(Answer)
  }

  /// What the statement did for one fire.
  enum Answer: Sendable {
    /// It wrote the fire's step: the row as the statement returned it.
    case written(PostgresRow)
    /// It wrote nothing for this fire (no such row, a state without a pure step, a writer in
    /// between, a statement the server refused): the fire takes the locked step (P3).
    case notWritten
    /// It failed in a way the locked step cannot resolve (a commit whose outcome is unknown).
    case failed(StateMachineStoreError)
  }

  /// How many statements may be in flight at once.
  let maxFlights: Int
  /// How many fires one statement takes at most.
  let maxBatch: Int

  private let lock = NSLock()
  private var flights = 0
  private var inFlight: Set<String> = []
  private var waiting: [Fire] = []
  private var shared = 0

  init(maxFlights: Int = 2, maxBatch: Int = 64) {
    self.maxFlights = maxFlights
    self.maxBatch = maxBatch
  }

  /// Enters a fire of `key`: it leads a flight of its own at once when a flight is free and no
  /// fire of its key is in flight; otherwise it waits for a leader to take it.
  func enter(key: String, payload: String?, expectedVersion: Int64?) async -> Turn {
    await withCheckedContinuation { continuation in
      let fire = Fire(key: key, payload: payload, expectedVersion: expectedVersion, continuation: continuation)
      let leads = lock.withLock { () -> Bool in
        if flights < maxFlights, !inFlight.contains(key) {
          flights += 1
          inFlight.insert(key)
          return true
        }
        waiting.append(fire)
        return false
      }
      if leads { continuation.resume(returning: .lead([fire])) }
    }
  }

  /// Ends the flight of `batch` and starts the next one, if fires wait: every waiting fire whose
  /// key is not in flight, up to ``maxBatch``, in the order they came. Its first fire is to lead
  /// it; the caller resumes it.
  func land(_ batch: [Fire]) -> [Fire] {
    lock.withLock {
      if batch.count > 1 { shared += 1 }
      for fire in batch { inFlight.remove(fire.key) }
      var next: [Fire] = []
      var left: [Fire] = []
      for fire in waiting {
        if next.count < maxBatch, !inFlight.contains(fire.key) {
          inFlight.insert(fire.key)
          next.append(fire)
        } else {
          left.append(fire)
        }
      }
      waiting = left
      if next.isEmpty { flights -= 1 }
      return next
    }
  }

  /// How many statements carried more than one fire.
  var sharedStatements: Int { lock.withLock { shared } }
}
#endif
