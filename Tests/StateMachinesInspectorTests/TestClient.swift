#if Inspector
import FlyingFox
import FlyingSocks
import Foundation

/// A minimal HTTP/1.1 client over a loopback socket, for the integration tests: plain requests
/// and a server-sent-events reader that decodes the chunked body itself (so that a test can stop
/// reading, and resume, as a slow browser would).
struct TestClient {
  let port: UInt16

  struct Response {
    let status: Int
    let headers: [String: String]
    let body: String
  }

  /// One request on its own connection (`Connection: close`).
  func send(_ method: String, _ path: String, headers: [String: String] = [:], body: String = "") async throws -> Response {
    let socket = try await AsyncSocket.connected(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))
    defer { try? socket.close() }
    try await socket.write(Data(Self.head(method, path, port: port, headers: headers, body: body).utf8))
    var bytes: [UInt8] = []
    while true {
      do {
        let chunk = try await socket.read(atMost: 65536)
        if chunk.isEmpty { break }
        bytes += chunk
      } catch {
        break
      }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    let lines = parts[0].components(separatedBy: "\r\n")
    let status = Int(lines[0].split(separator: " ")[1]) ?? 0
    var fields: [String: String] = [:]
    for line in lines.dropFirst() {
      if let colon = line.firstIndex(of: ":") {
        fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return Response(status: status, headers: fields, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
  }

  static func head(_ method: String, _ path: String, port: UInt16, headers: [String: String], body: String, close: Bool = true) -> String {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    if close { text += "Connection: close\r\n" }
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    return text
  }
}

/// An open `/api/stream`: reads events as the server sends them.
final class SSEReader: @unchecked Sendable {
  struct Event {
    let id: String?
    let data: String
    /// The data as a JSON object.
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
    var kind: String { json["kind"] as? String ?? "" }
    var seq: Int { json["seq"] as? Int ?? -1 }
  }

  private let socket: AsyncSocket
  private var isClosed = false
  private(set) var status = 0
  private var raw: [UInt8] = []
  private var body: [UInt8] = []
  /// Where the unread part of `body` starts (compacted now and then, not on every event).
  private var bodyStart = 0
  private var headerDone = false
  private(set) var heartbeats = 0
  /// How many events arrived so far (what a test reports when the connection ends early).
  private(set) var received = 0

  init(port: UInt16, token: String, lastEventID: String? = nil, receiveBuffer: Int32? = nil) async throws {
    socket = try await AsyncSocket.connected(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))
    if let receiveBuffer { try socket.socket.setValue(receiveBuffer, for: .receiveBufferSize) }
    var headers = ["Authorization": "Bearer \(token)", "Accept": "text/event-stream"]
    if let lastEventID { headers["Last-Event-ID"] = lastEventID }
    try await socket.write(Data(TestClient.head("GET", "/api/stream", port: port, headers: headers, body: "", close: false).utf8))
  }

  deinit { close() }

  /// Closes the connection, once: a second `close(2)` of the same number would close whatever
  /// descriptor another test running at the same time opened since under that number.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    try? socket.close()
  }

  /// Reads until `count` events (not comments) arrived or the time is up; returns them.
  func events(_ count: Int, within seconds: Double = 10) async throws -> [Event] {
    var events: [Event] = []
    let deadline = ContinuousClock.now + .seconds(seconds)
    while events.count < count, ContinuousClock.now < deadline {
      if let event = parseEvent() {
        events.append(event)
        continue
      }
      raw += try await read(within: max(0.01, (deadline - .now) / .seconds(1)))
      decode()
    }
    return events
  }

  /// Reads events until one satisfies `stop` (included) or the time is up.
  func events(until stop: (Event) -> Bool, within seconds: Double = 10) async throws -> [Event] {
    var events: [Event] = []
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      let more = try await self.events(1, within: (deadline - .now) / .seconds(1))
      guard let event = more.first else { break }
      events.append(event)
      if stop(event) { break }
    }
    return events
  }

  /// The bytes that arrive within `seconds` (none if the time runs out first); throws when the
  /// server closed the connection.
  private func read(within seconds: Double) async throws -> [UInt8] {
    let socket = self.socket
    return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
      group.addTask { try await socket.read(atMost: 65536) }
      group.addTask {
        try? await Task.sleep(for: .seconds(seconds))
        return nil
      }
      var bytes: [UInt8] = []
      // The read may finish as the timer does: keep whatever it read.
      let first = try await group.next()!
      group.cancelAll()
      bytes += first ?? []
      while let more = try? await group.next() { bytes += more ?? [] }
      return bytes
    }
  }

  /// Moves whole chunks of the chunked transfer encoding from `raw` to `body`.
  private func decode() {
    if !headerDone {
      guard let end = find([13, 10, 13, 10], in: raw) else { return }
      let head = String(decoding: raw[..<end], as: UTF8.self)
      status = Int(head.split(separator: " ")[1]) ?? 0
      raw.removeFirst(end + 4)
      headerDone = true
    }
    while let lineEnd = find([13, 10], in: raw) {
      let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self)
      guard let size = Int(sizeText, radix: 16) else { return }
      guard raw.count >= lineEnd + 2 + size + 2 else { return }
      body += raw[(lineEnd + 2)..<(lineEnd + 2 + size)]
      raw.removeFirst(lineEnd + 2 + size + 2)
    }
  }

  private func parseEvent() -> Event? {
    while let end = find([10, 10], in: body, from: bodyStart) {
      let block = String(decoding: body[bodyStart..<end], as: UTF8.self)
      bodyStart = end + 2
      if bodyStart > 65536 {
        body.removeFirst(bodyStart)
        bodyStart = 0
      }
      var id: String?
      var data: [String] = []
      for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
        if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
        if line.hasPrefix(":") { heartbeats += 1 }
      }
      if !data.isEmpty {
        received += 1
        return Event(id: id, data: data.joined(separator: "\n"))
      }
    }
    return nil
  }

  private func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
    guard haystack.count >= needle.count + start else { return nil }
    return haystack.withUnsafeBufferPointer { bytes in
      var index = start
      while index <= bytes.count - needle.count {
        if bytes[index] == needle[0] && bytes[index + 1] == needle[1] && (needle.count < 4 || (bytes[index + 2] == needle[2] && bytes[index + 3] == needle[3])) {
          return index
        }
        index += 1
      }
      return nil
    }
  }
}
#endif
