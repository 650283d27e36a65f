#if Inspector
/// The text of server-sent events (the `text/event-stream` format): an `id:` line that the
/// browser sends back as `Last-Event-ID` when it reconnects, and one `data:` line of JSON.
struct ServerSentEvent {
  /// The stream cursor after this event; no `id:` line when empty.
  let id: String

  /// An event carrying JSON that is already one line.
  func text(json: String) -> String {
    (id.isEmpty ? "" : "id: \(id)\n") + "data: \(json)\n\n"
  }

  /// An event carrying `record` of object `object`.
  func text(_ record: WireRecord, object: String, sequence: UInt64) -> String {
    text(json: record.json(object: object, sequence: sequence))
  }

  /// A comment line: keeps the connection busy so that a dead client is noticed.
  static let heartbeat = ": heartbeat\n\n"

  /// The first event of every stream: the protocol version.
  static let hello = "data: " + InspectorJSON.object([
    "kind": .string("hello"), "protocol": .string(InspectorProtocol.version),
  ]).description + "\n\n"
}

/// The wire protocol's name and version.
public enum InspectorProtocol {
  /// `statemachines-inspect/1` (Inspecting B.4).
  public static let version = "statemachines-inspect/1"
}
#endif
