import Foundation
import Testing

/// The Architecture article lists the files that extend `StateMachineDefinition`, the public
/// front; everything else is an internal type that takes the definition as an argument. This
/// test keeps the list true: the files that extend the definition are exactly the listed ones,
/// and there are at most ten.
@Suite struct DefinitionFrontTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// A bullet of the section "The definition's front" that does not name a file as the list does.
  enum ListError: Error { case malformed(String) }

  /// The files the article's section "The definition's front" lists, relative to `Sources/`.
  static func listedFiles() throws -> Set<String> {
    let article = try String(
      contentsOf: root.appendingPathComponent("Sources/StateMachines/StateMachines.docc/Architecture.md"),
      encoding: .utf8)
    guard let section = article.range(of: "## The definition's front") else { return [] }
    var files: Set<String> = []
    for line in article[section.upperBound...].split(separator: "\n") {
      if line.hasPrefix("## ") { break }
      guard line.hasPrefix("- ") else { continue }
      guard let match = line.firstMatch(of: /^- `([^`]+\.swift)`:/) else { throw ListError.malformed(String(line)) }
      files.insert(String(match.1))
    }
    return files
  }

  /// The Swift files under `Sources/` with a line that opens an extension of the definition.
  static func extendingFiles() throws -> Set<String> {
    let sources = root.appendingPathComponent("Sources")
    let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    var files: Set<String> = []
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      let extends = text.split(separator: "\n").contains { $0.contains(/^(public )?extension StateMachineDefinition\b/) }
      if extends { files.insert(String(url.path.dropFirst(sources.path.count + 1))) }
    }
    return files
  }

  @Test func theDefinitionIsExtendedOnlyInTheListedFiles() throws {
    let listed = try Self.listedFiles()
    let extending = try Self.extendingFiles()
    #expect(!listed.isEmpty, "the article lists no file")
    #expect(listed.count <= 10, "the front has \(listed.count) files")
    #expect(extending.subtracting(listed).sorted() == [], "extend the definition but are not listed")
    #expect(listed.subtracting(extending).sorted() == [], "listed but do not extend the definition")
  }
}
