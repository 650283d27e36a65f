#if Inspector
import FlyingFox
import Foundation

/// The routes of a store's rows (`statemachine inspect --db`): `GET …/instances` (rows and the
/// count in each state), `GET …/instances/{row}` (its state, deadlines and history), `POST
/// …/instances/{row}/events` (fired through the store, then recorded for every page).
extension InspectorHandler {
  /// Rows listed at most, of however many there are.
  static let listedRows = 500

  func storeRequest(_ request: HTTPRequest, object id: String, rest: [String]) async -> HTTPResponse {
    guard let store = hub.inspected(id)?.store else { return Self.notFound }
    do {
      switch (request.method, rest.count) {
      case (.GET, 0):
        let rows = try await store.rows()
        var counts: [String: Int] = [:]
        for row in rows {
          for path in row.configuration { counts[path, default: 0] += 1 }
        }
        return Self.json(
          .ok,
          .object([
            "total": InspectorJSON(rows.count),
            "counts": .object(counts.mapValues { InspectorJSON($0) }),
            "instances": .array(
              rows.prefix(Self.listedRows).map { row in
                .object(["id": .string(row.id), "state": .string(row.state), "configuration": InspectorJSON(row.configuration)])
              }),
          ]))
      case (.GET, 1):
        guard let instance = try await store.instance(rest[0]) else { return Self.notFound }
        return Self.json(.ok, instance)
      case (.POST, 2) where rest[1] == "events":
        let input: (event: String, payload: InspectorJSON?)
        switch await Self.readEvent(request) {
        case .success(let value): input = value
        case .failure(let error): return error.response
        }
        let outcome = try await store.fire(rest[0], input.event, input.payload)
        var fields: [String: InspectorJSON] = [
          "instance": .string(rest[0]), "event": .string(input.event), "source": .string("inspector"),
          "state": .string(outcome.state), "reason": InspectorJSON(outcome.reason),
          "time": .string(Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
        ]
        if let payload = input.payload { fields["payload"] = .string(payload.description) }
        hub.append(WireRecord(kind: outcome.outcome == "transition" ? "step" : "rejected", fields: fields), to: id)
        return Self.json(
          .ok,
          .object(["outcome": .string(outcome.outcome), "reason": InspectorJSON(outcome.reason), "state": .string(outcome.state)]))
      default:
        return Self.notFound
      }
    } catch {
      return Self.text(.internalServerError, "500 \(error)")
    }
  }
}
#endif
