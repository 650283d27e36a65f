#if Inspector
import Foundation

/// The checks of Inspecting B.6 that every request passes: the Host allowlist against DNS
/// rebinding, the token (as a bearer header or the session cookie), and the Origin of a POST.
struct InspectorSecurity: Sendable {
  /// The session cookie's name.
  static let cookieName = "statemachines-inspect"

  /// The per-run token: 128 random bits as 32 hexadecimal digits.
  let token: String
  /// The port the server listens on; a Host header must name it.
  let port: UInt16
  /// Host names (without port; IPv6 without brackets) the page may be reached by.
  let hostNames: Set<String>

  init(token: String = InspectorSecurity.makeToken(), port: UInt16, extraHostNames: [String] = []) {
    self.token = token
    self.port = port
    hostNames = Set(["127.0.0.1", "localhost", "::1"] + extraHostNames.map { $0.lowercased() })
  }

  /// A fresh 128-bit token from the system's secure random source.
  static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let word = generator.next() as UInt64
      let hex = String(word, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

  /// Whether a `Host` header names this server exactly: `127.0.0.1:<port>`, `localhost:<port>`,
  /// `[::1]:<port>` (or an extra name given for `--allow-remote`). Parsed as host and port,
  /// never by prefix: `127.0.0.1.evil.example:<port>` is refused.
  func allowsHost(_ header: String?) -> Bool {
    guard let header, let (host, port) = Self.split(hostHeader: header) else { return false }
    return port == self.port && hostNames.contains(host.lowercased())
  }

  /// A `Host` header's name and port; `nil` unless it is `name:port` or `[v6]:port`.
  static func split(hostHeader: String) -> (String, UInt16)? {
    let text = hostHeader.trimmingCharacters(in: .whitespaces)
    let host: Substring
    let rest: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      rest = text[text.index(after: close)...]
    } else {
      guard let colon = text.firstIndex(of: ":") else { return nil }
      host = text[..<colon]
      rest = text[colon...]
      guard !host.contains("["), !host.contains("]") else { return nil }
    }
    guard rest.hasPrefix(":"), !host.isEmpty else { return nil }
    let digits = rest.dropFirst()
    guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let port = UInt16(digits)
    else { return nil }
    return (String(host), port)
  }

  /// Whether the request carries the token, as `Authorization: Bearer <token>` or as the
  /// session cookie; compared in constant time.
  func isAuthenticated(authorization: String?, cookie: String?) -> Bool {
    if let bearer = Self.bearer(authorization), Self.constantTimeEqual(bearer, token) { return true }
    if let value = Self.cookie(Self.cookieName, in: cookie), Self.constantTimeEqual(value, token) { return true }
    return false
  }

  /// Whether the request carries the token as a bearer header (how the page trades it for the
  /// cookie).
  func hasBearer(_ authorization: String?) -> Bool {
    guard let bearer = Self.bearer(authorization) else { return false }
    return Self.constantTimeEqual(bearer, token)
  }

  /// Whether a POST's `Origin` is this server's own (`http://` and the allowed Host it was sent
  /// to). A request without `Origin` comes from no browser page and passes (it still needs the
  /// token); `null` and every other origin fail.
  func allowsOrigin(_ origin: String?, host: String?) -> Bool {
    guard let origin else { return true }
    guard let host, allowsHost(host) else { return false }
    return origin.lowercased() == "http://\(host.trimmingCharacters(in: .whitespaces).lowercased())"
  }

  /// The `Set-Cookie` value that the page's session trades the token for.
  var sessionCookie: String {
    "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/"
  }

  static func bearer(_ authorization: String?) -> String? {
    guard let authorization else { return nil }
    let parts = authorization.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }

  static func cookie(_ name: String, in header: String?) -> String? {
    guard let header else { return nil }
    for pair in header.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }

  /// Compares every byte whatever the first difference, so that timing tells nothing of the
  /// token.
  static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
    for index in 0..<max(x.count, y.count) {
      let left = index < x.count ? x[index] : 0
      let right = index < y.count ? y[index] : 0
      difference |= left ^ right
    }
    return difference == 0 && x.count == y.count
  }
}
#endif
