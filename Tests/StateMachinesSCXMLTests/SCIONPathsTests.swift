import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// The path explorer on the SCION documents (Paths §What the explorer runs): every path starts in
/// the configuration the script expects after start (a raise or send of the first macrostep is
/// part of it), and every shortest and cover path replays on the runtime step by step.
@Suite("Paths on the SCION documents", .timeLimit(.minutes(2)))
struct SCIONPathsTests {
  @Test(
    "every document the explorer can read: the start is the script's, every path replays",
    .enabled(if: SCIONSuite.isAvailable, "../shared/scxml-suite is absent"))
  func everyDocument() async throws {
    var limits = StateMachinePaths.Limits()
    limits.maxConfigurations = 500
    var explored = 0
    for entry in SCIONSuite.entries {
      await Task.yield()
      let base = SCIONSuite.folder.appendingPathComponent(entry.name)
      let document = try Data(contentsOf: base.appendingPathExtension("scxml"))
      let script = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: base.appendingPathExtension("json"))) as? [String: Any])
      let definition = try StateMachineDefinition<DynamicStateMachine>(scxml: document, clock: ManualClock())
      let paths = try StateMachinePaths(evaluatingGuardsOf: definition, limits: limits)
      let set = paths.shortestPaths()
      let cover = paths.transitionCover()
      let start = Set((script["initialConfiguration"] as? [String]) ?? [])
      for path in set.paths + cover.paths {
        #expect(Set(path.steps[0].configuration.map { String($0.split(separator: "/").last!) }) == start, "\(entry.name)")
        do {
          try await path.replay(on: { DynamicStateMachine(definition) })
        } catch {
          Issue.record("\(entry.name): \(error)")
          break
        }
      }
      explored += 1
    }
    #expect(explored == 96)
  }
}
