#if Inspector
import FlyingFox
import Foundation

@testable import StateMachinesInspector

/// A fake object for the handler and hub tests: records come from a continuation the test
/// feeds, and sent events are answered from a closure.
final class FakeObject: @unchecked Sendable {
  let records: AsyncStream<WireRecord>
  let continuation: AsyncStream<WireRecord>.Continuation
  private let lock = NSLock()
  private var sentEvents: [(String, InspectorJSON?)] = []
  var alive = true

  init() {
    (records, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  var sent: [(String, InspectorJSON?)] { lock.withLock { sentEvents } }

  var inspected: InspectedObject {
    InspectedObject(
      definitionJSON: #"{"states":[],"transitions":[],"invokes":[],"events":[]}"#,
      dot: "digraph { s0 }",
      send: { [self] event, payload in
        lock.withLock { sentEvents.append((event, payload)) }
        return .init(outcome: event == "unknown" ? "rejected" : "transition", reason: event == "unknown" ? "no such event" : nil, state: "on")
      },
      isAlive: { [self] in lock.withLock { alive } })
  }

  /// A step record as the core's adapter would make it.
  static func step(_ event: String, _ number: Int = 0) -> WireRecord {
    WireRecord(kind: "step", fields: [
      "event": .string(event), "state": .string("s\(number)"), "configuration": InspectorJSON(["s\(number)"]),
      "terminated": .bool(false), "exited": InspectorJSON(["a"]), "entered": InspectorJSON(["b"]),
    ])
  }
}

/// Requests built by hand, as FlyingFox would parse them.
enum Requests {
  static let port: UInt16 = 4242
  static let token = "0123456789abcdef0123456789abcdef"
  static let security = InspectorSecurity(token: token, port: port)

  static func make(
    _ method: HTTPMethod, _ path: String, host: String? = "127.0.0.1:\(port)", token: String? = Requests.token,
    headers: [HTTPHeader: String] = [:], body: Data = Data()
  ) -> HTTPRequest {
    var all = HTTPHeaders(headers)
    if let host { all[.host] = host }
    if let token { all[.authorization] = "Bearer \(token)" }
    return HTTPRequest(method: method, version: .http11, path: path, query: [], headers: all, body: HTTPBodySequence(data: body))
  }

  static func handler(_ hub: InspectorHub, render: @escaping @Sendable (String) -> String? = { _ in "<svg id=\"x\"></svg>" }) -> InspectorHandler {
    var handler = InspectorHandler(hub: hub, security: security)
    handler.render = render
    return handler
  }
}
#endif
