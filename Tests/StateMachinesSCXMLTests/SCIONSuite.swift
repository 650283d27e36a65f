import Foundation

/// The SCION conformance suite in `../shared/scxml-suite/scion` (third-party test data, read in
/// place, never copied into the project), or the folder `STATEMACHINES_SCXML_SUITE` names.
enum SCIONSuite {
  /// One script of `manifest.tsv`.
  struct Entry: CustomStringConvertible, Sendable {
    let name: String
    let needs: String
    var description: String { name }
  }

  static var folder: URL {
    if let path = ProcessInfo.processInfo.environment["STATEMACHINES_SCXML_SUITE"] {
      return URL(fileURLWithPath: path).appendingPathComponent("scion")
    }
    // Tests/StateMachinesSCXMLTests/SCIONSuite.swift → the project root → ../shared.
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/scxml-suite/scion")
  }

  static var isAvailable: Bool {
    FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.tsv").path)
  }

  /// The scripts the manifest lists; empty when the suite is absent.
  static var entries: [Entry] {
    guard let text = try? String(contentsOf: folder.appendingPathComponent("manifest.tsv"), encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count >= 2 else { return nil }
      return Entry(name: String(fields[0]), needs: String(fields[1]))
    }
  }
}
