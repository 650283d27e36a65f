// A swift-log handler for the scheduler tests of both databases: what a failing pass logs.

#if SQLite || PostgreSQL
import Foundation
import Logging

/// A log handler that keeps the messages it gets.
final class RecordingLogHandler: LogHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [String] = []
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    lock.withLock { recorded.append("\(event.level): \(event.message) \(event.metadata ?? [:])") }
  }

  var messages: [String] { lock.withLock { recorded } }
}
#endif
