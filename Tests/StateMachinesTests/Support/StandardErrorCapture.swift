import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Captures what the process writes to standard error (file descriptor 2) while a closure runs.
///
/// The descriptor is process-wide, so captures are serialised by one lock, and the test runner's
/// own output (Swift Testing writes its progress to standard error, from any test running
/// meanwhile) is caught too: callers pick their lines by a prefix of their own, and everything
/// captured is written back to the real standard error afterwards, so nothing is lost. A file,
/// not a pipe, takes the output: a pipe's buffer would fill and block a writer that nobody reads.
enum StandardErrorCapture {
  private static let lock = NSLock()

  /// Runs `body` with standard error redirected, and returns everything written to it meanwhile.
  static func capture(_ body: () throws -> Void) throws -> String {
    try lock.withLock {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("stderr-capture-\(UUID().uuidString).txt")
      guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw CaptureError.cannotCreate(url.path)
      }
      defer { try? FileManager.default.removeItem(at: url) }
      let file = try FileHandle(forWritingTo: url)
      defer { try? file.close() }

      let saved = dup(STDERR_FILENO)
      guard saved >= 0 else { throw CaptureError.descriptor("dup") }
      guard dup2(file.fileDescriptor, STDERR_FILENO) >= 0 else {
        close(saved)
        throw CaptureError.descriptor("dup2")
      }
      var failure: (any Error)?
      do { try body() } catch { failure = error }
      // Restore standard error before anything can fail again.
      _ = dup2(saved, STDERR_FILENO)
      close(saved)

      let captured = String(decoding: try Data(contentsOf: url), as: UTF8.self)
      FileHandle.standardError.write(Data(captured.utf8))
      if let failure { throw failure }
      return captured
    }
  }

  enum CaptureError: Error {
    case cannotCreate(String)
    case descriptor(String)
  }
}
