import Foundation

/// Where a definition's verbose trace goes: every event, guard result, exit and entry,
/// transition and rejection, and how long each run-to-completion step took.
///
/// ```swift
/// sm.verbose = true                                 // standard error
/// sm.log = StateMachineLog { line in lines.append(line) }   // anywhere else
/// ```
public struct StateMachineLog: Sendable {
  /// Receives one line of trace, without a trailing newline.
  public let write: @Sendable (String) -> Void

  /// A log that hands every line to `write`.
  public init(_ write: @escaping @Sendable (String) -> Void) {
    self.write = write
  }

  /// Writes each line to standard error.
  public static let standardError = StateMachineLog { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
