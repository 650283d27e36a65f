import Foundation

extension NSLock {
  /// Runs `body` holding the lock. (Foundation's `withLock` is not available on every platform
  /// version this package supports.)
  func locked<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
