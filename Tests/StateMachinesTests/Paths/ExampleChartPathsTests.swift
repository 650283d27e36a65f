import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// The path explorer on every chart under `Examples/Definitions` (Paths §What the explorer
/// runs), every name bound as the command-line tool binds it (guards pass, actions do nothing):
/// every shortest and cover path replays on the runtime, timeouts on a ManualClock.
@Suite("Paths on the example charts", .timeLimit(.minutes(1)))
struct ExampleChartPathsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Definitions")

  @Test("every example chart: every shortest and cover path replays on the runtime")
  func everyChart() async throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
    #expect(files.count >= 4)
    for file in files {
      let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
      let bind: (inout Bindings<DynamicStateMachine>) -> Void = { bind in
        bind.bindUnknownNames(guard: { _ in { _, _ in true } }, action: { _ in { _, _ in } }, invocation: { _ in { _ in nil } })
      }
      let definition =
        file.hasSuffix(".scxml")
        ? try StateMachineDefinition<DynamicStateMachine>(scxml: data, clock: ManualClock(), bind: bind)
        : try StateMachineDefinition<DynamicStateMachine>(json: data, clock: ManualClock(), bind: bind)
      let paths = try StateMachinePaths(evaluatingGuardsOf: definition)
      #expect(paths.stoppedEarly == nil, "\(file)")
      let all = paths.shortestPaths().paths + paths.transitionCover().paths
      #expect(!all.isEmpty, "\(file)")
      for path in all {
        do {
          try await path.replay(on: { DynamicStateMachine(definition) })
        } catch {
          Issue.record("\(file): \(error)")
          break
        }
      }
    }
  }
}
