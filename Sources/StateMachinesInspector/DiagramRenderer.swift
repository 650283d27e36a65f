#if Inspector
import Foundation

/// Renders DOT as SVG through Graphviz's `dot`, where processes can be started: the inspector's
/// diagrams and `statemachine render --format svg`. Elsewhere (iOS), or without `dot` on the
/// PATH, there is no SVG and the page draws an outline of the state tree with the same ids.
public enum DiagramRenderer {
  /// Why no SVG was made.
  public enum Failure: Error, CustomStringConvertible {
    /// No `dot` on the PATH, or no processes on this platform.
    case dotMissing
    /// `dot` was found but could not be started.
    case cannotRun(executable: String, reason: String)
    /// `dot` ended with a non-zero status.
    case failed(status: Int32)

    public var description: String {
      switch self {
      case .dotMissing: "Graphviz's 'dot' is not on the PATH"
      case .cannotRun(let executable, let reason): "cannot run \(executable): \(reason)"
      case .failed(let status): "dot failed with status \(status)"
      }
    }
  }

  /// The SVG that `dot -Tsvg` draws from `dot`.
  public static func svg(rendering dot: String) throws(Failure) -> String {
    #if os(macOS) || os(Linux) || os(Windows)
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin:/usr/local/bin:/opt/homebrew/bin"
      let executable = path.split(separator: ":").map { "\($0)/dot" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
      guard let executable else { throw .dotMissing }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = ["-Tsvg"]
      let input = Pipe()
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      do { try process.run() } catch { throw .cannotRun(executable: executable, reason: "\(error)") }
      // Written from another thread: a large drawing would fill the output pipe before dot
      // has read all its input.
      let writer = input.fileHandleForWriting
      let text = Data(dot.utf8)
      let thread = Thread {
        writer.write(text)
        try? writer.close()
      }
      thread.start()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw .failed(status: process.terminationStatus) }
      return String(decoding: data, as: UTF8.self)
    #else
      throw .dotMissing
    #endif
  }

  /// The SVG, or `nil` when `dot` is missing or fails (the page then draws its outline).
  static func svg(_ dot: String) -> String? {
    try? svg(rendering: dot)
  }
}
#endif
