import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// Every definition error a chart file can produce is reported by `statemachine validate` at
/// its culprit: file, line, column, and the JSON pointer for JSON; an error that several nodes
/// cause names each (Hierarchy §7). The charts are in ``chartRows``, one row per case of
/// ``DefinitionError``.
@Suite("statemachine validate locates every definition error")
struct ValidateLocationTests {
  static let charts = chartRows.flatMap(\.charts)

  @Test("every case of DefinitionError has a row, with charts or the reason no document produces it")
  func everyCaseHasARow() {
    for kind in DefinitionError.Kind.allCases {
      let rows = chartRows.filter { $0.kind == kind }
      #expect(rows.count == 1, "DefinitionError.\(kind.rawValue) needs one row in chartRows, has \(rows.count)")
      if let row = rows.first, row.charts.isEmpty {
        #expect(!row.otherFormats.isEmpty, "DefinitionError.\(kind.rawValue): no chart, and no reason why")
      }
    }
    // A chart of a row thrown as another case is the format's own report of it.
    for row in chartRows {
      for chart in row.charts where chart.thrown != row.kind {
        #expect([.invalidJSON, .invalidDocument].contains(chart.thrown), "\(chart): thrown as \(chart.thrown)")
      }
    }
  }

  @Test("validate prints the error at its culprit, and a note at each further culprit", arguments: charts)
  func validate(chart: Chart) throws {
    let tool = try #require(Self.tool, "the statemachine executable is not next to the test bundle; build the package")
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("validate-\(UUID().uuidString)-\(chart.name).\(chart.format.fileExtension)")
    try Data(chart.text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }

    let process = Process()
    process.executableURL = tool
    process.arguments = ["validate", file.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()

    #expect(process.terminationStatus == 1)
    let lines = output.split(separator: "\n").map(String.init)
    try #require(lines.count == chart.places.count, "expected \(chart.places.count) lines, got:\n\(output)")
    for (index, (line, place)) in zip(lines, chart.places).enumerated() {
      let severity = index == 0 ? "error" : "note"
      let expectedStart = "\(file.path):\(place.line):\(place.column): \(severity): "
      #expect(line.hasPrefix(expectedStart), "expected \(expectedStart)…, got \(line)")
      if let pointer = place.pointer {
        #expect(line.hasSuffix(" (at '\(pointer)')"), "expected the pointer '\(pointer)' in \(line)")
      } else {
        #expect(!line.contains(" (at '"), "an SCXML location has no pointer: \(line)")
      }
    }
    #expect(lines.first?.contains(chart.message) == true, "expected '\(chart.message)' in \(lines.first ?? "")")
  }

  @Test("the library throws the row's case, at the chart's places", arguments: charts)
  func thrown(chart: Chart) {
    let error = Self.loadError(chart)
    let places = chart.places.map { DefinitionLocation(line: $0.line, column: $0.column, pointer: $0.pointer) }
    switch error {
    case .located(let inner, let locations)?:
      #expect(inner.kind == chart.thrown)
      #expect(locations == places)
    case .invalidJSON(_, let line, let column, let pointer)?:
      #expect(chart.thrown == .invalidJSON)
      #expect(DefinitionLocation(line: line, column: column, pointer: pointer) == places.first)
    case .invalidDocument(_, let line, let column)?:
      #expect(chart.thrown == .invalidDocument)
      #expect(DefinitionLocation(line: line, column: column) == places.first)
    default:
      Issue.record("\(chart): expected an error at its places, got \(String(describing: error))")
    }
  }

  /// The error loading `chart` throws, with the tool's bindings (every name bound).
  static func loadError(_ chart: Chart) -> DefinitionError? {
    let data = Data(chart.text.utf8)
    let bind: (inout Bindings<DynamicStateMachine>) -> Void = { bind in
      bind.bindUnknownNames(guard: { _ in { _, _ in true } }, action: { _ in { _, _ in } })
    }
    do {
      if chart.format == .scxml {
        _ = try StateMachineDefinition<DynamicStateMachine>(scxml: data, bind: bind)
      } else {
        _ = try StateMachineDefinition<DynamicStateMachine>(json: data, bind: bind)
      }
      return nil
    } catch {
      return error
    }
  }

  /// The `statemachine` executable, which `swift test` builds next to the test bundle.
  static let tool: URL? = {
    var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    return directories.map { $0.appendingPathComponent("statemachine") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()
}
