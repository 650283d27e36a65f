#if Inspector
import Foundation
import StateMachines
import Testing

@testable import StateMachinesInspector

/// A real machine over loopback (Inspecting B.7 item 3): a POST fires it and the stream shows the
/// step; its document is served; a deallocated machine is detached.
@Suite(.timeLimit(.minutes(1))) struct InspectorModelTests {
  /// Examples/Definitions/media-player.json, guards passing and actions doing nothing.
  static func mediaPlayer() throws -> DynamicStateMachine {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../Examples/Definitions/media-player.json")
    let definition = try StateMachineDefinition<DynamicStateMachine>(json: Data(contentsOf: file)) { bind in
      bind.bindUnknownNames(guard: { _ in { _, _ in true } }, action: { _ in { _, _ in } })
    }
    let machine = DynamicStateMachine(definition)
    try machine.startStateMachine()
    return machine
  }

  func post(_ inspector: Inspector, _ object: String, _ body: String) async throws -> [String: Any] {
    let response = try await TestClient(port: inspector.port).send(
      "POST", "/api/objects/\(object)/events",
      headers: ["Authorization": "Bearer \(inspector.token)", "Origin": "http://127.0.0.1:\(inspector.port)"], body: body)
    #expect(response.status == 200)
    return try #require(try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any])
  }

  @Test func aPostFiresAndTheStreamShowsTheStep() async throws {
    try await withInspector(try await Inspector.start(port: 0)) { inspector in
      let machine = try Self.mediaPlayer()
      let id = inspector.attach(machine, name: "player")
      let reader = try await SSEReader(port: inspector.port, token: inspector.token)
      let opening = try await reader.events(until: { $0.kind == "snapshot" })
      #expect(opening.map(\.kind) == ["hello", "attached", "snapshot"])
      #expect(opening.last?.json["configuration"] as? [String] == ["off"])

      let answer = try await post(inspector, id, #"{"event": "power", "payload": {"volume": 3}}"#)
      #expect(answer["outcome"] as? String == "transition")
      #expect(answer["state"] as? String == "on/stopped")
      #expect(machine.state == "on/stopped")

      let records = try await reader.events(until: { $0.kind == "step" })
      let step = try #require(records.last)
      #expect(records.map(\.kind) == ["event", "step"])
      #expect(step.json["event"] as? String == "power")
      #expect(step.json["source"] as? String == "inspector")
      #expect(step.json["payload"] as? String == #"{"volume":3}"#)
      #expect(step.json["exited"] as? [String] == ["off"])
      #expect(step.json["entered"] as? [String] == ["on", "on/stopped"])
      #expect(step.json["configuration"] as? [String] == ["on", "on/stopped"])
      #expect((step.json["transitions"] as? [Int])?.count == 1)
      #expect(step.json["duration"] is Double)

      let rejected = try await post(inspector, id, #"{"event": "bogus"}"#)
      #expect(rejected["outcome"] as? String == "rejected")
      #expect((rejected["reason"] as? String)?.contains("bogus") == true)
      let record = try #require(try await reader.events(until: { $0.kind == "rejected" }).last)
      #expect(record.json["event"] as? String == "bogus")
      #expect(record.json["reason"] as? String == rejected["reason"] as? String)
    }
  }

  @Test func theDefinitionIsTheInspectionDocument() async throws {
    try await withInspector(try await Inspector.start(port: 0)) { inspector in
      let machine = try Self.mediaPlayer()
      let id = inspector.attach(machine, name: "player")
      let response = try await TestClient(port: inspector.port).send(
        "GET", "/api/objects/\(id)/definition", headers: ["Authorization": "Bearer \(inspector.token)"])
      #expect(response.status == 200)
      let document = try JSONDecoder().decode(InspectionDocument.self, from: Data(response.body.utf8))
      #expect(document == machine.stateMachineDefinition.inspectionDocument)
      #expect(document.states.first?.path == "off")
      #expect(document.events.contains("power"))
    }
  }

  @Test func aDeallocatedMachineIsDetached() async throws {
    try await withInspector(try await Inspector.start(port: 0)) { inspector in
      var machine: DynamicStateMachine? = try Self.mediaPlayer()
      weak let watched = machine
      let id = inspector.attach(machine!, name: "player")
      let reader = try await SSEReader(port: inspector.port, token: inspector.token)
      #expect(try await reader.events(until: { $0.kind == "snapshot" }).count == 3)
      machine = nil
      #expect(watched == nil, "the inspector holds the machine weakly")
      let events = try await reader.events(until: { $0.kind == "detached" }, within: 20)
      #expect(events.last?.kind == "detached")
      #expect(events.last?.json["object"] as? String == id)
      let answer = try await TestClient(port: inspector.port).send(
        "POST", "/api/objects/\(id)/events", headers: ["Authorization": "Bearer \(inspector.token)"], body: #"{"event":"power"}"#)
      #expect(answer.status == 404)
    }
  }

  @Test func recordsTheObjectsStreamDroppedAreAGap() {
    let sequence = CoreSequence()
    func record(_ number: UInt64) -> InspectionRecord { InspectionRecord(sequence: number, kind: .event, event: "e", state: "s") }
    #expect(sequence.wire(record(1)).map(\.kind) == ["event"])
    #expect(sequence.wire(record(2)).map(\.kind) == ["event"])
    let jumped = sequence.wire(record(5))
    #expect(jumped.map(\.kind) == ["gap", "event"])
    #expect(jumped.first?.fields["lost"] == .number(2))
  }

  @Test func payloadsShowAsJSONOrTheirReflectionCutAt2KiB() {
    struct Item: Encodable, Sendable { let name: String; let count: Int }
    struct Opaque: Sendable { let secret = 1 }
    #expect(PayloadText.describe(Item(name: "a/b", count: 2)) == #"{"count":2,"name":"a/b"}"#)
    #expect(PayloadText.describe(Opaque()).contains("Opaque(secret: 1)"))
    let long = PayloadText.describe(String(repeating: "é", count: 5000))
    #expect(long.utf8.count <= 2048 + "…".utf8.count)
    #expect(long.hasSuffix("…"))
  }

  struct Level: Decodable, Sendable { let volume: Int }

  @Test func aRegisteredTypeDecodesThePayloadBeforeTheEventFires() async throws {
    try await withInspector(try await Inspector.start(port: 0)) { inspector in
      let knob = StateMachineDefinition<DynamicStateMachine> { sm in
        sm.addState("low")
        sm.addState("high")
        sm.when("set", transitionFrom: "low", to: "high").guarded { _, transition in
          transition.payload(as: Level.self)?.volume == 11
        }
        sm.when("caf\u{E9}", transitionFrom: "high", to: "low").guarded { _, transition in
          transition.payload(as: Level.self)?.volume == 0
        }
      }
      let machine = DynamicStateMachine(knob)
      // The key is decomposed, the definition's name precomposed: one name (Semantics §Names).
      let id = inspector.attach(machine, name: "knob", payloads: ["set": Level.self, "cafe\u{301}": Level.self])

      let malformed = try await post(inspector, id, #"{"event": "set", "payload": {"volume": "eleven"}}"#)
      #expect(malformed["outcome"] as? String == "rejected")
      #expect((malformed["reason"] as? String)?.hasPrefix("the payload of 'set' does not decode into its registered type") == true)
      #expect(malformed["state"] as? String == "low" && machine.state == "low")

      let typed = try await post(inspector, id, #"{"event": "set", "payload": {"volume": 11}}"#)
      #expect(typed["outcome"] as? String == "transition" && machine.state == "high")
      let back = try await post(inspector, id, #"{"event": "caf\u00e9", "payload": {"volume": 0}}"#)
      #expect(back["outcome"] as? String == "transition" && machine.state == "low")
      // Without a payload the event fires without one: the guard sees none.
      let bare = try await post(inspector, id, #"{"event": "set"}"#)
      #expect(bare["outcome"] as? String == "rejected" && machine.state == "low")
    }
  }

  @Test func anUnregisteredEventsPayloadArrivesAsInspectorJSON() async throws {
    try await withInspector(try await Inspector.start(port: 0)) { inspector in
      let seen = LockedLines()
      let definition = StateMachineDefinition<DynamicStateMachine> { sm in
        sm.addState("a")
        sm.when("poke", transitionFrom: "a", to: "a").action { _, transition in
          seen.append(transition.payload(as: InspectorJSON.self)?.description ?? "none")
        }
      }
      let machine = DynamicStateMachine(definition)
      let id = inspector.attach(machine, name: "a", payloads: ["other": Level.self])
      _ = try await post(inspector, id, #"{"event": "poke", "payload": {"volume": 11}}"#)
      #expect(seen.lines == [#"{"volume":11}"#])
    }
  }

  @Test func redactDecidesWhatThePageSeesOfAPayload() async throws {
    try await withInspector(try await Inspector.start(port: 0)) { inspector in
      let machine = try Self.mediaPlayer()
      let id = inspector.attach(machine, name: "player") { event, payload in
        event == "power" ? nil : "masked \(event ?? "")"
      }
      let reader = try await SSEReader(port: inspector.port, token: inspector.token)
      _ = try await reader.events(until: { $0.kind == "snapshot" })
      _ = try await post(inspector, id, #"{"event": "power", "payload": {"card": "4111 1111 1111 1111"}}"#)
      let power = try await reader.events(until: { $0.kind == "step" })
      #expect(power.map { $0.json["payload"] as? String } == ["(redacted)", "(redacted)"])
      _ = try await post(inspector, id, #"{"event": "bogus", "payload": {"card": "4111 1111 1111 1111"}}"#)
      let bogus = try await reader.events(until: { $0.kind == "rejected" })
      #expect(bogus.last?.json["payload"] as? String == #""masked bogus""#)
      // No record shows the card number.
      #expect(!(power + bogus).contains { ($0.json["payload"] as? String)?.contains("4111") == true })
    }
  }
}


/// Lines appended from a machine's callbacks, read by the test.
///
/// `@unchecked Sendable`: `stored` is guarded by `lock`.
final class LockedLines: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []

  func append(_ line: String) { lock.withLock { stored.append(line) } }
  var lines: [String] { lock.withLock { stored } }
}
#endif
