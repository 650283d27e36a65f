import Foundation

/// Third-party test data in `../shared` next to the project (never copied into it): present in
/// CI, perhaps absent elsewhere, where the tests that need it are disabled with that reason.
enum SharedFixtures {
  /// `../shared` from this file: Tests/StateMachinesTests/JSON → the project root → its parent.
  static let shared = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")

  /// A TBStateMachine fixture from `../shared/tbstatemachine-fixtures`, if present.
  static func tbFixture(_ name: String) -> Data? {
    try? Data(contentsOf: shared.appendingPathComponent("tbstatemachine-fixtures").appendingPathComponent(name))
  }

  static var hasTBFixtures: Bool { tbFixture("statemachine.json") != nil }
}
