#if Inspector
import FlyingFox
import FlyingSocks
import Foundation

/// A live inspector: a small HTTP server that shows attached state machine objects in the
/// browser — their diagram with the active configuration, a log of events and steps — and sends
/// them events (the Inspecting article).
///
/// ```swift
/// let inspector = try await Inspector.start(port: 0)
/// inspector.attach(player, name: "player")
/// print(inspector.url)   // open it in a browser
/// ```
///
/// The server listens on the loopback interface unless `allowRemote` is set; every API request
/// needs the per-run token in ``url`` (traded by the page for a cookie). Objects are held weakly
/// and records are kept in a bounded ring per object, so an inspector costs a bounded amount of
/// memory however long it runs. Attach objects in debug builds only.
public final class Inspector: Sendable {
  /// The page's address, with the token in the fragment (`#token=…`): the fragment never
  /// reaches a server log or a `Referer` header.
  public let url: URL
  /// The port the server listens on (the one picked by the system for port 0).
  public let port: UInt16

  let hub: InspectorHub
  let security: InspectorSecurity
  private let server: HTTPServer
  private let serverTask: Task<Void, Never>
  private let sweepTask: Task<Void, Never>
  private let readers = ReaderTasks()

  /// Errors of ``start(port:host:allowRemote:ringCapacity:)``.
  public enum StartError: Error, CustomStringConvertible {
    /// `host` is not a loopback address and `allowRemote` was not given.
    case remoteNotAllowed(String)
    /// `host` is not an IP address the server can bind.
    case badHost(String)

    public var description: String {
      switch self {
      case .remoteNotAllowed(let host):
        return "\(host) is not a loopback address: pass allowRemote (or --allow-remote), or better use an SSH port forward"
      case .badHost(let host): return "cannot listen on \(host): give an IPv4 or IPv6 address"
      }
    }
  }

  /// Starts a server on `host` and `port` (0: a free port) and returns once it listens.
  ///
  /// - Parameters:
  ///   - port: The TCP port; 0 lets the system pick one (read it from ``port`` or ``url``).
  ///   - host: The address to bind: `127.0.0.1` (default), `::1` or `localhost`; any other needs
  ///     `allowRemote`.
  ///   - allowRemote: Whether a non-loopback `host` is allowed. The page is then reachable from
  ///     the network, with the token as its only protection.
  ///   - ringCapacity: Records kept per object for pages that reconnect or read slowly.
  public static func start(
    port: UInt16 = 0, host: String = "127.0.0.1", allowRemote: Bool = false, ringCapacity: Int = 10_000
  ) async throws -> Inspector {
    var limits = InspectorHub.Limits()
    limits.ringCapacity = ringCapacity
    return try await start(port: port, host: host, allowRemote: allowRemote, limits: limits)
  }

  /// ``start(port:host:allowRemote:ringCapacity:)`` with every limit (tests shorten the heartbeat).
  static func start(port: UInt16, host: String, allowRemote: Bool, limits: InspectorHub.Limits) async throws -> Inspector {
    let loopback = ["127.0.0.1", "::1", "localhost"].contains(host.lowercased())
    guard loopback || allowRemote else { throw StartError.remoteNotAllowed(host) }
    let address: any SocketAddress
    do {
      if host.lowercased() == "localhost" {
        address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
      } else if host.contains(":") {
        address = try sockaddr_in6.inet6(ip6: host, port: port)
      } else {
        address = try sockaddr_in.inet(ip4: host, port: port)
      }
    } catch {
      throw StartError.badHost(host)
    }
    let server = HTTPServer(config: HTTPServer.Configuration(address: address, logger: .disabled))
    let serverTask = Task {
      do { try await server.run() } catch {}
    }
    do {
      try await server.waitUntilListening()
    } catch {
      serverTask.cancel()
      throw error
    }
    var bound = port
    if case .ip4(_, let listening) = await server.listeningAddress { bound = listening }
    if case .ip6(_, let listening) = await server.listeningAddress { bound = listening }
    let wildcard = ["0.0.0.0", "::"].contains(host)
    let security = InspectorSecurity(port: bound, extraHostNames: loopback || wildcard ? [] : [host])
    let hub = InspectorHub(limits: limits)
    await server.appendRoute("*", to: InspectorHandler(hub: hub, security: security))
    let urlHost = host.contains(":") && host != "::" ? "[\(host)]" : (loopback || wildcard ? "127.0.0.1" : host)
    return Inspector(
      url: URL(string: "http://\(urlHost):\(bound)/#token=\(security.token)")!, port: bound, hub: hub,
      security: security, server: server, serverTask: serverTask)
  }

  private init(url: URL, port: UInt16, hub: InspectorHub, security: InspectorSecurity, server: HTTPServer, serverTask: Task<Void, Never>) {
    self.url = url
    self.port = port
    self.hub = hub
    self.security = security
    self.server = server
    self.serverTask = serverTask
    // Notices objects that were deallocated while their record stream stays open.
    sweepTask = Task { [hub, readers] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(250))
        for (id, inspected) in hub.liveObjects where !inspected.isAlive() {
          readers.cancel(id)
          hub.detach(id)
        }
      }
    }
  }

  /// The per-run token (also in ``url``'s fragment), for clients other than the page.
  public var token: String { security.token }

  /// Attaches an object whose records arrive on `records`, made wire records by `convert`
  /// (payloads are encoded here, in the reader task, not in the object's step): the type-erased
  /// core of `attach(_:name:)`, and what tests use with fake records.
  @discardableResult
  func attach<Record: Sendable>(
    name: String, inspected: InspectedObject, records: AsyncStream<Record>,
    convert: @escaping @Sendable (Record) -> [WireRecord]
  ) -> String {
    let id = hub.register(name: name, inspected: inspected)
    let task = Task { [hub] in
      for await record in records {
        if Task.isCancelled { break }
        for wire in convert(record) { hub.append(wire, to: id) }
      }
      hub.detach(id)
    }
    readers.add(id, task)
    return id
  }

  /// Stops the server: ends every stream and closes the listening socket.
  public func stop() async {
    sweepTask.cancel()
    readers.cancelAll()
    hub.close()
    await server.stop(timeout: 1)
    serverTask.cancel()
  }
}

/// The tasks that read each attached object's records, to cancel when it goes.
///
/// `@unchecked Sendable`: `tasks` is guarded by `lock`.
final class ReaderTasks: @unchecked Sendable {
  private let lock = NSLock()
  private var tasks: [String: Task<Void, Never>] = [:]

  func add(_ id: String, _ task: Task<Void, Never>) { lock.withLock { tasks[id] = task } }

  func cancel(_ id: String) { lock.withLock { tasks.removeValue(forKey: id) }?.cancel() }

  func cancelAll() {
    let all = lock.withLock {
      defer { tasks = [:] }
      return tasks.values
    }
    for task in all { task.cancel() }
  }
}
#endif
