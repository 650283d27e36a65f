#if Inspector
import FlyingFox
import Foundation
import Testing

@testable import StateMachinesInspector

/// The handlers without sockets (Inspecting B.7 item 2): hand-made requests, every check of B.6.
@Suite struct InspectorHandlerTests {
  let hub = InspectorHub()
  let fake = FakeObject()
  let id: String
  var handler: InspectorHandler { Requests.handler(hub) }

  init() {
    id = hub.register(name: "player", inspected: fake.inspected)
  }

  @Test func aHostOutsideTheAllowlistIs400() async throws {
    for host in [
      "evil.example:4242", "127.0.0.1.evil.example:4242", "127.0.0.1:4243", "127.0.0.1", "localhost:42420",
      "[::1]", "::1:4242", "127.0.0.1:4242:1", "127.0.0.1:+4242", "[::1]x:4242",
    ] {
      let response = try await handler.handleRequest(Requests.make(.GET, "/api/objects", host: host))
      #expect(response.statusCode == .badRequest, "\(host)")
    }
    let none = try await handler.handleRequest(Requests.make(.GET, "/", host: nil))
    #expect(none.statusCode == .badRequest)
    for host in ["127.0.0.1:4242", "localhost:4242", "LOCALHOST:4242", "[::1]:4242"] {
      let response = try await handler.handleRequest(Requests.make(.GET, "/api/objects", host: host))
      #expect(response.statusCode == .ok, "\(host)")
    }
  }

  @Test func anAPIRequestWithoutTheTokenIs401() async throws {
    for path in ["/api/objects", "/api/objects/\(id)/definition", "/api/objects/\(id)/diagram.svg", "/api/stream"] {
      let response = try await handler.handleRequest(Requests.make(.GET, path, token: nil))
      #expect(response.statusCode == .unauthorized, "\(path)")
      let wrong = try await handler.handleRequest(Requests.make(.GET, path, token: "0123456789abcdef0123456789abcdee"))
      #expect(wrong.statusCode == .unauthorized, "\(path)")
    }
    let post = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/\(id)/events", token: nil, body: Data(#"{"event":"play"}"#.utf8)))
    #expect(post.statusCode == .unauthorized)
    #expect(fake.sent.isEmpty)
    let body = String(decoding: try await post.bodyData, as: UTF8.self)
    #expect(body.contains("401"))
  }

  @Test func theSessionTradesTheBearerTokenForAStrictCookie() async throws {
    let response = try await handler.handleRequest(Requests.make(.POST, "/api/session"))
    #expect(response.statusCode == .noContent)
    let cookie = try #require(response.headers[.setCookie])
    #expect(cookie == "statemachines-inspect=\(Requests.token); HttpOnly; SameSite=Strict; Path=/")
    let withCookie = try await handler.handleRequest(
      Requests.make(.GET, "/api/objects", token: nil, headers: [.cookie: "other=1; statemachines-inspect=\(Requests.token)"]))
    #expect(withCookie.statusCode == .ok)
    let noBearer = try await handler.handleRequest(
      Requests.make(.POST, "/api/session", token: nil, headers: [.cookie: "statemachines-inspect=\(Requests.token)"]))
    #expect(noBearer.statusCode == .unauthorized)
  }

  @Test func aPostFromAForeignOriginIs403() async throws {
    let body = Data(#"{"event":"play"}"#.utf8)
    for origin in ["http://evil.example", "null", "http://127.0.0.1:4243", "https://127.0.0.1:4242", "http://localhost:4242"] {
      let response = try await handler.handleRequest(
        Requests.make(.POST, "/api/objects/\(id)/events", headers: [HTTPHeader("Origin"): origin], body: body))
      #expect(response.statusCode == .forbidden, "\(origin)")
    }
    #expect(fake.sent.isEmpty)
    let own = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/\(id)/events", headers: [HTTPHeader("Origin"): "http://127.0.0.1:4242"], body: body))
    #expect(own.statusCode == .ok)
    #expect(fake.sent.map(\.0) == ["play"])
  }

  @Test func anOversizedBodyIs413AndALongNameIs400() async throws {
    let big = Data(#"{"event":"play","payload":""#.utf8) + Data(repeating: UInt8(ascii: "x"), count: 64 * 1024) + Data(#""}"#.utf8)
    let response = try await handler.handleRequest(Requests.make(.POST, "/api/objects/\(id)/events", body: big))
    #expect(response.statusCode == .payloadTooLarge)
    let name = String(repeating: "e", count: 257)
    let long = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/\(id)/events", body: Data(#"{"event":"\#(name)"}"#.utf8)))
    #expect(long.statusCode == .badRequest)
    let bad = try await handler.handleRequest(Requests.make(.POST, "/api/objects/\(id)/events", body: Data("play".utf8)))
    #expect(bad.statusCode == .badRequest)
    #expect(fake.sent.isEmpty)
  }

  @Test func anEventIsSentWithItsJSONPayloadAndAnswered() async throws {
    let response = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/\(id)/events", body: Data(#"{"event":"volume","payload":{"level":3,"tags":["a"]}}"#.utf8)))
    #expect(response.statusCode == .ok)
    let answer = try #require(try JSONSerialization.jsonObject(with: try await response.bodyData) as? [String: Any])
    #expect(answer["outcome"] as? String == "transition")
    #expect(answer["state"] as? String == "on")
    #expect(fake.sent.first?.1 == .object(["level": .number(3), "tags": .array([.string("a")])]))
    #expect(fake.sent.first?.1?.description == #"{"level":3,"tags":["a"]}"#)
    let unknown = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/\(id)/events", body: Data(#"{"event":"unknown"}"#.utf8)))
    let rejected = try #require(try JSONSerialization.jsonObject(with: try await unknown.bodyData) as? [String: Any])
    #expect(rejected["outcome"] as? String == "rejected")
    #expect(rejected["reason"] as? String == "no such event")
    let missing = try await handler.handleRequest(
      Requests.make(.POST, "/api/objects/99/events", body: Data(#"{"event":"play"}"#.utf8)))
    #expect(missing.statusCode == .notFound)
  }

  @Test func everyResponseCarriesTheSecurityHeadersAndNoCORS() async throws {
    for request in [
      Requests.make(.GET, "/"), Requests.make(.GET, "/app.js"), Requests.make(.GET, "/api/objects"),
      Requests.make(.GET, "/api/objects", token: nil), Requests.make(.GET, "/", host: "evil:1"),
    ] {
      let response = try await handler.handleRequest(request)
      #expect(response.headers[HTTPHeader("Content-Security-Policy")] == "default-src 'self'; frame-ancestors 'none'")
      #expect(response.headers[HTTPHeader("X-Content-Type-Options")] == "nosniff")
      #expect(response.headers[.cacheControl] == "no-store")
      #expect(response.headers[HTTPHeader("Referrer-Policy")] == "no-referrer")
      #expect(response.headers[HTTPHeader("Access-Control-Allow-Origin")] == nil)
    }
  }

  @Test func thePageIsServedWithoutTheTokenAndHasTheDOMContract() async throws {
    let page = try await handler.handleRequest(Requests.make(.GET, "/", token: nil))
    #expect(page.statusCode == .ok)
    #expect(page.headers[.contentType] == "text/html; charset=utf-8")
    let html = String(decoding: try await page.bodyData, as: UTF8.self)
    for id in ["banner", "objects", "state", "terminated", "connection", "diagram", "log", "pause", "clear", "filter",
               "event-buttons", "event-name", "event-payload", "send-event"] {
      #expect(html.contains("id=\"\(id)\""), "\(id)")
    }
    #expect(!html.contains("http://") && !html.contains("https://"), "no external resource")
    let script = try await handler.handleRequest(Requests.make(.GET, "/app.js", token: nil))
    #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
    #expect(String(decoding: try await script.bodyData, as: UTF8.self).contains("EventSource('/api/stream')"))
    for part in ["/app.css", "/log.js", "/store.js"] {
      let file = try await handler.handleRequest(Requests.make(.GET, part, token: nil))
      #expect(file.statusCode == .ok, "\(part)")
    }
    let other = try await handler.handleRequest(Requests.make(.GET, "/secret", token: nil))
    #expect(other.statusCode == .notFound)
  }

  @Test func objectsDefinitionAndDiagram() async throws {
    let list = try await handler.handleRequest(Requests.make(.GET, "/api/objects"))
    let body = try #require(try JSONSerialization.jsonObject(with: try await list.bodyData) as? [String: Any])
    #expect(body["protocol"] as? String == "statemachines-inspect/1")
    let objects = try #require(body["objects"] as? [[String: Any]])
    #expect(objects.map { $0["name"] as? String } == ["player"])
    #expect(objects.first?["id"] as? String == id)
    let definition = try await handler.handleRequest(Requests.make(.GET, "/api/objects/\(id)/definition"))
    #expect(definition.headers[.contentType] == "application/json")
    let document = try #require(try JSONSerialization.jsonObject(with: try await definition.bodyData) as? [String: Any])
    #expect(Set(document.keys) == ["states", "transitions", "invokes", "events"])
    let svg = try await handler.handleRequest(Requests.make(.GET, "/api/objects/\(id)/diagram.svg"))
    #expect(svg.headers[.contentType] == "image/svg+xml")
    #expect(String(decoding: try await svg.bodyData, as: UTF8.self) == "<svg id=\"x\"></svg>")
    let noDot = Requests.handler(InspectorHub(), render: { _ in nil })
    let hub2 = noDot.hub
    let other = hub2.register(name: "x", inspected: fake.inspected)
    let missing = try await noDot.handleRequest(Requests.make(.GET, "/api/objects/\(other)/diagram.svg"))
    #expect(missing.statusCode == .notFound)
  }

  @Test func theStreamHeadAndItsFirstEvents() async throws {
    hub.append(FakeObject.step("play", 1), to: id)
    let response = try await handler.handleRequest(Requests.make(.GET, "/api/stream"))
    #expect(response.statusCode == .ok)
    #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
    #expect(response.headers[.cacheControl] == "no-store")
    guard case .httpBody(let body) = response.payload else {
      Issue.record("no body")
      return
    }
    var iterator = body.makeAsyncIterator()
    let first = String(decoding: try await iterator.next() ?? Data(), as: UTF8.self)
    #expect(first.contains(#"data: {"kind":"hello","protocol":"statemachines-inspect/1"}"#))
    #expect(first.contains(#""kind":"attached""#))
    #expect(first.contains(#""kind":"snapshot""#))
    #expect(first.contains("id: \(id):2"))
  }

  @Test func atMostFourStreamsAreOpen() async throws {
    var open: [HTTPResponse] = []
    for _ in 0..<4 {
      let response = try await handler.handleRequest(Requests.make(.GET, "/api/stream"))
      #expect(response.statusCode == .ok)
      open.append(response)
    }
    let fifth = try await handler.handleRequest(Requests.make(.GET, "/api/stream"))
    #expect(fifth.statusCode == .tooManyRequests)
    #expect(hub.openStreams == 4)
    open.removeAll()
    #expect(hub.openStreams == 0)
  }
}
#endif
