import Foundation

/// Renders DOT as SVG through Graphviz's `dot`, where processes can be started. Elsewhere (iOS),
/// or without `dot` on the PATH, there is no SVG and the page draws an outline of the state
/// tree with the same ids.
enum DiagramRenderer {
  /// The SVG, or `nil` when `dot` is missing or fails.
  static func svg(_ dot: String) -> String? {
    #if os(macOS) || os(Linux) || os(Windows)
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin:/usr/local/bin:/opt/homebrew/bin"
      let executable = path.split(separator: ":").map { "\($0)/dot" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
      guard let executable else { return nil }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = ["-Tsvg"]
      let input = Pipe()
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      do { try process.run() } catch { return nil }
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
      guard process.terminationStatus == 0 else { return nil }
      return String(decoding: data, as: UTF8.self)
    #else
      return nil
    #endif
  }
}
