import Foundation

extension NSLock {
  /// Runs `body` holding the lock. (Foundation's `withLock` is not available on every platform
  /// version this package supports.)
  func locked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
