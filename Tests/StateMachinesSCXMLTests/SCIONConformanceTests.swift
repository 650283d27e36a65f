import Foundation
import StateMachines
import StateMachinesSCXML
import Testing

/// The SCION suite through the SCXML import (Hierarchy §9.2): each script's whole atomic
/// configuration, as a set, after start and after every event; `after` advances a manual clock.
@Suite("SCION conformance (§9.2)", .timeLimit(.minutes(1)))
struct SCIONConformanceTests {
  @Test(
    "every script of the manifest", .enabled(if: SCIONSuite.isAvailable, "../shared/scxml-suite is absent"),
    arguments: SCIONSuite.entries)
  func script(_ entry: SCIONSuite.Entry) async throws {
    let base = SCIONSuite.folder.appendingPathComponent(entry.name)
    let document = try Data(contentsOf: base.appendingPathExtension("scxml"))
    let script = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: base.appendingPathExtension("json"))) as? [String: Any])
    let clock = ManualClock()
    let machine = try DynamicStateMachine(scxml: document, clock: clock)
    try machine.startStateMachine()
    #expect(Self.configuration(machine) == Self.ids(script["initialConfiguration"]), "\(entry.name) after start")
    for (index, step) in ((script["events"] as? [[String: Any]]) ?? []).enumerated() {
      if let after = step["after"] as? Int { await clock.advance(by: .milliseconds(after)) }
      let event = try #require((step["event"] as? [String: Any])?["name"] as? String)
      machine.fire(event)
      #expect(
        Self.configuration(machine) == Self.ids(step["nextConfiguration"]),
        "\(entry.name) after event \(index + 1) '\(event)'")
    }
  }

  @Test("the manifest lists the 96 scripts", .enabled(if: SCIONSuite.isAvailable, "../shared/scxml-suite is absent"))
  func manifest() {
    #expect(SCIONSuite.entries.count == 96)
  }

  /// The active atomic states' ids.
  static func configuration(_ machine: DynamicStateMachine) -> Set<String> {
    Set(machine.activeLeaves.map { String($0.split(separator: "/").last!) })
  }

  static func ids(_ value: Any?) -> Set<String> {
    Set((value as? [String]) ?? [])
  }
}
