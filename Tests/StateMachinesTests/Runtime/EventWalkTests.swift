import Foundation
import Testing

/// The Architecture article lists, as a numbered list, the files an event passes through and the
/// functions it calls in each. This test keeps that list true: every file exists and declares
/// every function named on its line, no file comes twice, and there are at most five.
@Suite struct EventWalkTests {
  /// One line of the list: the file and the functions named on it.
  struct Stop {
    let file: String
    let functions: [String]
  }

  /// A numbered line of the walk that does not read "N. `File.swift`: functions".
  enum WalkError: Error { case malformed(String) }

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The numbered list of the article's section "The path of one event".
  static func walk() throws -> [Stop] {
    let article = try String(
      contentsOf: root.appendingPathComponent("Sources/StateMachines/StateMachines.docc/Architecture.md"), encoding: .utf8)
    guard let section = article.range(of: "## The path of one event") else { return [] }
    var stops: [Stop] = []
    for line in article[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("## ") { break }
      guard line.contains(#/^\d+\. /#) else { continue }
      // A numbered line that does not name its file as the list does is an error, not a skip.
      guard let match = line.wholeMatch(of: /\d+\. `([^`]+\.swift)`: (.*)/) else {
        throw WalkError.malformed(String(line))
      }
      let functions = match.2.matches(of: /`([A-Za-z_$][A-Za-z0-9_$]*)`/).map { String($0.1) }
      stops.append(Stop(file: String(match.1), functions: functions))
    }
    return stops
  }

  @Test func theWalkHasAtMostFiveFilesNoneTwice() throws {
    let stops = try Self.walk()
    #expect((1...5).contains(stops.count), "the walk lists \(stops.count) files")
    #expect(Set(stops.map(\.file)).count == stops.count, "a file comes twice: \(stops.map(\.file))")
  }

  @Test func everyFunctionOfTheWalkIsDeclaredInItsFile() throws {
    for stop in try Self.walk() {
      let url = Self.root.appendingPathComponent("Sources/StateMachines").appendingPathComponent(stop.file)
      let source = try String(contentsOf: url, encoding: .utf8)
      #expect(!stop.functions.isEmpty, "\(stop.file) names no function")
      for function in stop.functions {
        let declared = source.contains("func \(function)(") || source.contains("func \(function)<")
        #expect(declared, "\(stop.file) declares no function \(function)")
      }
    }
  }
}
