#if Inspector
import FlyingFox
import Foundation

/// Every request of protocol `statemachines-inspect/1` (Inspecting B.4), after the checks of
/// B.6: one handler, so that tests call it with hand-made requests and no socket.
struct InspectorHandler: HTTPHandler {
  /// Request bodies larger than this are refused (413).
  static let maxBody = 64 * 1024
  /// Event names longer than this, in UTF-8 bytes, are refused (400).
  static let maxEventName = 256

  let hub: InspectorHub
  let security: InspectorSecurity
  /// `dot` → SVG; replaced in tests.
  var render: @Sendable (String) -> String? = DiagramRenderer.svg

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard security.allowsHost(request.headers[.host]) else {
      return Self.text(.badRequest, "400 bad Host: open the URL printed by statemachine inspect")
    }
    let path = request.path
    guard path.hasPrefix("/api/") else { return page(request) }
    guard !(request.method == .POST && !security.allowsOrigin(request.headers[HTTPHeader("Origin")], host: request.headers[.host])) else {
      return Self.text(.forbidden, "403 foreign Origin")
    }
    if path == "/api/session" && request.method == .POST {
      guard security.hasBearer(request.headers[.authorization]) else { return Self.unauthorised }
      var response = Self.respond(.noContent, Data(), type: nil)
      response.headers[.setCookie] = security.sessionCookie
      return response
    }
    guard security.isAuthenticated(authorization: request.headers[.authorization], cookie: request.headers[.cookie]) else {
      return Self.unauthorised
    }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    // "", "api", …
    let route = Array(parts.dropFirst(2))
    if route == ["objects"], request.method == .GET {
      return Self.json(.ok, .object(["protocol": .string(InspectorProtocol.version), "objects": hub.objectList()]))
    }
    if route == ["stream"], request.method == .GET { return stream(request) }
    if route.count >= 3, route[0] == "objects", route[2] == "instances" {
      return await storeRequest(request, object: route[1], rest: Array(route.dropFirst(3)))
    }
    guard route.count == 3, route[0] == "objects" else { return Self.notFound }
    let id = route[1]
    switch (request.method, route[2]) {
    case (.GET, "definition"):
      guard let inspected = hub.inspected(id) else { return Self.notFound }
      return Self.respond(.ok, Data(inspected.definitionJSON.utf8), type: "application/json")
    case (.GET, "diagram.svg"):
      guard let svg = hub.svg(id, render: render) else { return Self.notFound }
      return Self.respond(.ok, Data(svg.utf8), type: "image/svg+xml")
    case (.POST, "events"):
      return await sendEvent(request, to: id)
    default:
      return Self.notFound
    }
  }

  /// The body of a POST of an event: `{"event": "play", "payload": …}`, or the response that
  /// refuses it.
  static func readEvent(_ request: HTTPRequest) async -> Result<(event: String, payload: InspectorJSON?), ResponseError> {
    let body: Data
    switch await readBody(request) {
    case .success(let data): body = data
    case .failure(let error): return .failure(error)
    }
    struct Input: Decodable {
      let event: String
      let payload: InspectorJSON?
    }
    guard let input = try? JSONDecoder().decode(Input.self, from: body) else {
      return .failure(ResponseError(text(.badRequest, "400 expected {\"event\": \"name\", \"payload\": JSON}")))
    }
    guard !input.event.isEmpty, input.event.utf8.count <= maxEventName else {
      return .failure(ResponseError(text(.badRequest, "400 the event name must have 1 to \(maxEventName) bytes")))
    }
    return .success((input.event, input.payload == .null ? nil : input.payload))
  }

  /// `POST /api/objects/{id}/events` `{"event": "play", "payload": …}`.
  private func sendEvent(_ request: HTTPRequest, to id: String) async -> HTTPResponse {
    let input: (event: String, payload: InspectorJSON?)
    switch await Self.readEvent(request) {
    case .success(let value): input = value
    case .failure(let error): return error.response
    }
    guard let inspected = hub.inspected(id), let result = await inspected.send(input.event, input.payload) else {
      return Self.notFound
    }
    return Self.json(
      .ok,
      .object(["outcome": .string(result.outcome), "reason": InspectorJSON(result.reason), "state": .string(result.state)]))
  }

  /// `GET /api/stream`: server-sent events for every object.
  private func stream(_ request: HTTPRequest) -> HTTPResponse {
    guard let session = hub.openStream(lastEventID: request.headers[HTTPHeader("Last-Event-ID")]) else {
      return Self.text(.tooManyRequests, "429 too many streams open")
    }
    var headers = Self.commonHeaders
    headers[.contentType] = "text/event-stream; charset=utf-8"
    return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: session.body, suggestedBufferSize: 16 * 1024))
  }

  /// The page's files: `/`, `/app.js`, `/app.css`.
  private func page(_ request: HTTPRequest) -> HTTPResponse {
    guard request.method == .GET || request.method == .HEAD else { return Self.notFound }
    // No icon: an empty answer rather than a 404 in the browser's console.
    if request.path == "/favicon.ico" { return Self.respond(.noContent, Data(), type: nil) }
    guard let file = PageResources.file(for: request.path) else { return Self.notFound }
    return Self.respond(.ok, file.data, type: file.type)
  }

  /// The body, unless it is over ``maxBody`` (413) or unreadable (400).
  static func readBody(_ request: HTTPRequest) async -> Result<Data, ResponseError> {
    if let count = request.bodySequence.count, count > maxBody {
      return .failure(ResponseError(text(.payloadTooLarge, "413 the body is over 64 KiB")))
    }
    var data = Data()
    do {
      for try await chunk in request.bodySequence {
        data.append(chunk)
        if data.count > maxBody { return .failure(ResponseError(text(.payloadTooLarge, "413 the body is over 64 KiB"))) }
      }
    } catch {
      return .failure(ResponseError(text(.badRequest, "400 unreadable body")))
    }
    return .success(data)
  }

  /// A response that ends a request early, as an `Error` for `Result`.
  struct ResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
  }

  // MARK: Responses

  /// On every response (B.6): no sniffing, no caching, no referrer, no framing, no CORS.
  static var commonHeaders: HTTPHeaders {
    var headers = HTTPHeaders()
    headers[HTTPHeader("Content-Security-Policy")] = "default-src 'self'; frame-ancestors 'none'"
    headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
    headers[.cacheControl] = "no-store"
    headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
    return headers
  }

  static func respond(_ status: HTTPStatusCode, _ body: Data, type: String?) -> HTTPResponse {
    var headers = commonHeaders
    if let type { headers[.contentType] = type }
    return HTTPResponse(statusCode: status, headers: headers, body: body)
  }

  static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
    respond(status, Data((text + "\n").utf8), type: "text/plain; charset=utf-8")
  }

  static func json(_ status: HTTPStatusCode, _ value: InspectorJSON) -> HTTPResponse {
    respond(status, Data(value.description.utf8), type: "application/json")
  }

  static var unauthorised: HTTPResponse {
    text(.unauthorized, "401 not authorised: open the URL printed by statemachine inspect")
  }

  static var notFound: HTTPResponse { text(.notFound, "404 not found") }
}

#endif
