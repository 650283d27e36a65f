#if Inspector
import FlyingFox
import Foundation
import StateMachines
import Testing

@testable import StateMachinesInspector

/// A store's rows through the handler (`statemachine inspect --db`): counts per state,
/// one row, firing recorded for every page; the same checks as every API request.
@Suite struct InspectorStoreTests {
  final class Rows: @unchecked Sendable {
    private let lock = NSLock()
    private var states = ["a": "off", "b": "on/stopped"]
    var all: [String: String] { lock.withLock { states } }
    func set(_ id: String, _ state: String) { lock.withLock { states[id] = state } }
  }

  let hub = InspectorHub()
  let rows = Rows()
  let id: String

  init() throws {
    let definition = try StateMachineDefinition<DynamicStateMachine>(
      json: Data(#"{"format": "statemachines/1", "initial": "off", "states": {"off": {"on": {"power": "on"}}, "on": {}}}"#.utf8))
    let rows = self.rows
    let store = InspectorStore(
      rows: {
        rows.all.sorted { $0.key < $1.key }.map { InspectorStore.Row(id: $0.key, state: $0.value, configuration: [$0.value]) }
      },
      instance: { id in rows.all[id].map { .object(["id": .string(id), "state": .string($0)]) } },
      fire: { id, event, _ in
        guard event == "power", rows.all[id] == "off" else { return .init(outcome: "rejected", reason: "no", state: rows.all[id] ?? "") }
        rows.set(id, "on")
        return .init(outcome: "transition", reason: nil, state: "on")
      })
    // Registered as attach(store:definition:name:) does, without a server.
    let document = String(decoding: try JSONEncoder().encode(definition.inspectionDocument), as: UTF8.self)
    id = hub.register(
      name: "rows",
      inspected: InspectedObject(
        definitionJSON: document, dot: "", send: { _, _ in nil }, isAlive: { true }, store: store))
  }

  func json(_ response: HTTPResponse) async throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: try await response.bodyData) as? [String: Any])
  }

  @Test func rowsAreCountedPerStateAndFiredThroughTheStore() async throws {
    let handler = Requests.handler(hub)
    let list = try await json(try await handler.handleRequest(Requests.make(.GET, "/api/objects/\(id)/instances")))
    #expect(list["total"] as? Int == 2)
    #expect(list["counts"] as? [String: Int] == ["off": 1, "on/stopped": 1])
    let objects = try await json(try await handler.handleRequest(Requests.make(.GET, "/api/objects")))
    #expect((objects["objects"] as? [[String: Any]])?.first?["store"] as? Bool == true)

    let fired = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/\(id)/instances/a/events", body: Data(#"{"event": "power", "payload": [1]}"#.utf8)))
    #expect(try await json(fired)["outcome"] as? String == "transition")
    #expect(rows.all["a"] == "on")
    let again = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/\(id)/instances/a/events", body: Data(#"{"event": "power"}"#.utf8)))
    #expect(try await json(again)["outcome"] as? String == "rejected")

    let row = try await json(try await handler.handleRequest(Requests.make(.GET, "/api/objects/\(id)/instances/a")))
    #expect(row["state"] as? String == "on")
    let missing = try await handler.handleRequest(Requests.make(.GET, "/api/objects/\(id)/instances/zz"))
    #expect(missing.statusCode == .notFound)

    // Both fires are in the ring for every page, marked with the row.
    var cursor = StreamCursor(lastEventID: "\(id):1")
    let text = hub.drain(&cursor)
    #expect(text.contains(#""instance":"a""#))
    #expect(text.contains(#""kind":"step""#) && text.contains(#""kind":"rejected""#))
    #expect(text.contains(#""payload":"[1]""#))
  }

  @Test func storeRoutesNeedTheTokenAndOrigin() async throws {
    let handler = Requests.handler(hub)
    let anonymous = try await handler.handleRequest(Requests.make(.GET, "/api/objects/\(id)/instances", token: nil))
    #expect(anonymous.statusCode == .unauthorized)
    let foreign = try await handler.handleRequest(
      Requests.make(
        .POST, "/api/objects/\(id)/instances/a/events", headers: [HTTPHeader("Origin"): "http://evil.example"],
        body: Data(#"{"event": "power"}"#.utf8)))
    #expect(foreign.statusCode == .forbidden)
    #expect(rows.all["a"] == "off")
  }
}
#endif
