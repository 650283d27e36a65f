import Foundation

/// The lock that serialises the events of a `Sendable` machine object.
///
/// Recursive on purpose: a callback that fires an event of its own machine re-enters on the same
/// thread, finds the machine busy and queues the event instead of deadlocking. Other threads wait
/// until the running step and its queue are done.
public final class StateMachineLock: @unchecked Sendable {
  @usableFromInline let lock = NSRecursiveLock()

  /// Creates an unlocked lock.
  public init() {}

  @inlinable
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}

extension NSLock {
  /// Runs `body` holding the lock. (Foundation's `withLock` is not available on every platform
  /// version this package supports.)
  func locked<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
