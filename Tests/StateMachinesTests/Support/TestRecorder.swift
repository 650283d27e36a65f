import Foundation

/// The one box tests record into: lines in the order they were written (what callbacks, logs and
/// observers saw) and named counts. Callbacks of `Sendable` machines run on any thread and log
/// closures are `@Sendable`, so every access takes the lock.
final class TestRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [String] = []
  private var counts: [String: Int] = [:]

  init() {}

  /// Appends one line.
  func append(_ line: String) { lock.withLock { recorded.append(line) } }

  /// The lines so far, in order.
  var lines: [String] { lock.withLock { recorded } }

  /// Forgets the lines and the counts.
  func clear() {
    lock.withLock {
      recorded.removeAll()
      counts.removeAll()
    }
  }

  /// Adds `amount` to the count named `key`.
  func increment(_ key: String, by amount: Int = 1) { lock.withLock { counts[key, default: 0] += amount } }

  /// The count named `key`; 0 until it is incremented.
  subscript(key: String) -> Int { lock.withLock { counts[key, default: 0] } }
}
