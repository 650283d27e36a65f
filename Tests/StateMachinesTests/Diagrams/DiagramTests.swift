import Foundation
import Testing

import StateMachines

@StateMachine
final class DiagramSubscription {
  var paid = true
  static let stateMachine = StateMachineDefinition<DiagramSubscription> { sm in
    sm.initialState = "pendingActivation"
    sm.addState("pendingActivation")
    sm.addState("active")
    sm.addState("suspended")
    sm.addFinalState("terminated")
    sm.when("activate", transitionFrom: "pendingActivation", to: "active").guarded { $0.paid }
    sm.when("suspend", transitionFrom: "active", to: "suspended")
    sm.when("unsuspend", transitionFrom: "suspended", to: "active")
    sm.when("terminate", transitionFrom: ["active", "suspended"], to: "terminated")
    sm.when("reset", transitionFromAnyStateTo: "pendingActivation")
  }
}

@Suite struct DiagramTests {
  @Test func dotHasTheInitialMarkerOneEdgePerTransitionAndGuardMarkers() {
    let dot = DiagramSubscription.stateMachine.dotDiagram
    #expect(dot.hasPrefix("digraph \"DiagramSubscription\" {"))
    #expect(dot.contains("\"__initial\" -> \"pendingActivation\";"))
    #expect(dot.contains("\"pendingActivation\" -> \"active\" [label=\"activate [guard]\"];"))
    #expect(dot.contains("\"active\" -> \"suspended\" [label=\"suspend\"];"))
    #expect(dot.contains("\"active\" -> \"terminated\" [label=\"terminate\"];"))
    #expect(dot.contains("\"suspended\" -> \"terminated\" [label=\"terminate\"];"))
    #expect(dot.contains("\"terminated\" [shape=doublecircle];"))
    #expect(dot.contains("\"__any\" -> \"pendingActivation\" [label=\"reset\"];"))
    #expect(dot.components(separatedBy: " -> ").count - 1 == 7)
  }

  @Test func mermaidHasTheInitialMarkerEdgesAndFinalState() {
    let mermaid = DiagramSubscription.stateMachine.mermaidDiagram
    let lines = mermaid.split(separator: "\n").map(String.init)
    #expect(lines.first == "stateDiagram-v2")
    #expect(lines.contains("  state \"pendingActivation\" as s0"))
    #expect(lines.contains("  [*] --> s0"))
    #expect(lines.contains("  s0 --> s1 : activate [guard]"))
    #expect(lines.contains("  s1 --> s3 : terminate"))
    #expect(lines.contains("  s2 --> s3 : terminate"))
    #expect(lines.contains("  any --> s0 : reset"))
    #expect(lines.contains("  s3 --> [*]"))
  }

  /// Renders through the real Graphviz `dot`. `.ci/run` installs Graphviz and sets
  /// `STATEMACHINES_REQUIRE_DOT=1`, so there the test cannot silently skip.
  @Test(.enabled(if: DiagramTests.dotPath != nil || ProcessInfo.processInfo.environment["STATEMACHINES_REQUIRE_DOT"] == "1"))
  func theRealDotBinaryRendersTheSubscriptionMachine() throws {
    let (status, svg, stderr) = try Self.render(DiagramSubscription.stateMachine.dotDiagram)
    #expect(status == 0, "dot failed: \(stderr)")
    #expect(svg.contains("<svg"))
    #expect(svg.contains("pendingActivation"))
    #expect(svg.contains("activate [guard]"))
  }

  /// Renders DOT text to SVG with the real `dot`: its exit status, output and error output.
  static func render(_ text: String) throws -> (status: Int32, svg: String, stderr: String) {
    let dot = try #require(Self.dotPath, "Graphviz 'dot' is not installed")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dot)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, svg, stderr)
  }

  static var dotPath: String? {
    for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
      let path = directory + "/dot"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }
}
