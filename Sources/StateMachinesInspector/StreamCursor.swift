#if Inspector
/// Where a client is in each object's records: the SSE `id:` of every event it is sent, and the
/// `Last-Event-ID` it sends back on reconnecting, as `<object>:<sequence>` pairs joined by
/// commas (`1:57,2:3`). Resuming from it replays exactly the records after those, so a
/// reconnect neither repeats nor skips one (or says how many it lost, with `gap`).
struct StreamCursor: Sendable, Equatable {
  private var positions: [String: UInt64] = [:]
  /// Object ids in the order the client met them, so that the id text is stable.
  private(set) var objects: [String] = []

  /// The cursor a `Last-Event-ID` header names; empty for none or a malformed one (the
  /// client then starts afresh, with snapshots).
  init(lastEventID: String?) {
    guard let lastEventID, lastEventID.utf8.count <= 4096 else { return }
    for pair in lastEventID.split(separator: ",") {
      let parts = pair.split(separator: ":")
      guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCIIDigit),
        let sequence = UInt64(parts[1])
      else { continue }
      self[String(parts[0])] = sequence
    }
  }

  /// The last sequence number the client has of object `id`, `nil` for an object it never saw.
  subscript(id: String) -> UInt64? {
    get { positions[id] }
    set {
      if positions[id] == nil, newValue != nil { objects.append(id) }
      positions[id] = newValue
      if newValue == nil { objects.removeAll { $0 == id } }
    }
  }

  /// Drops an object the server no longer keeps.
  mutating func forget(_ id: String) { self[id] = nil }

  /// The text of the SSE `id:` field.
  var lastEventID: String {
    objects.map { "\($0):\(positions[$0]!)" }.joined(separator: ",")
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
#endif
