import Foundation

/// The clock that dates a store's deadlines (P15).
public enum StoreClock: Sendable {
  /// The database's own clock (PostgreSQL `now()`): one clock for every process. A store with no
  /// clock of its own (SQLite, in memory) uses the system clock.
  case database
  /// The wall clock of the process.
  case system
  /// A clock that moves only when a test moves it.
  case manual(ManualStoreClock)

  /// The current time on this clock, for stores that read it in the process.
  public var now: Date {
    switch self {
    case .database, .system: return Date()
    case .manual(let clock): return clock.now
    }
  }
}

/// A wall clock for tests: it starts at a fixed date and moves only by ``advance(by:)`` or
/// ``set(_:)``, so a test can make deadlines due without waiting, or move it back (P15).
///
/// It is `Sendable` (`@unchecked`: its time is read and written only under its lock).
public final class ManualStoreClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date

  /// A clock at `start` (by default 2026-01-01 00:00:00 UTC).
  public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
    current = start
  }

  /// The clock's time.
  public var now: Date { lock.locked { current } }

  /// Moves the clock forward (or back, for a negative duration).
  public func advance(by duration: Duration) {
    lock.locked { current += duration.storeSeconds }
  }

  /// Sets the clock to `date`.
  public func set(_ date: Date) {
    lock.locked { current = date }
  }
}
