#if Inspector
import Foundation
import Testing

@testable import StateMachinesInspector

/// The stream over loopback with fake objects (Inspecting B.7 item 3): resume without duplicates,
/// `detached`, and a slow client that cannot make the server's memory grow. Serialized: the
/// slow client's 100,000 records keep the cooperative pool busy for seconds, which would only
/// delay the other tests' sweeps and reads (the waits allow for other suites doing the same).
@Suite(.serialized, .timeLimit(.minutes(1))) struct InspectorStreamTests {
  static func start(ringCapacity: Int = 10_000) async throws -> Inspector {
    var limits = InspectorHub.Limits()
    limits.ringCapacity = ringCapacity
    return try await Inspector.start(port: 0, host: "127.0.0.1", allowRemote: false, limits: limits)
  }

  @Test func theURLNamesTheLoopbackPortAndToken() async throws {
    try await withInspector(try await Self.start()) { inspector in
      #expect(inspector.port > 0)
      #expect(inspector.url.absoluteString == "http://127.0.0.1:\(inspector.port)/#token=\(inspector.token)")
      #expect(inspector.token.count == 32 && inspector.token.allSatisfy(\.isHexDigit))
      let page = try await TestClient(port: inspector.port).send("GET", "/")
      #expect(page.status == 200)
      #expect(page.body.contains("id=\"log\""))
      let objects = try await TestClient(port: inspector.port).send("GET", "/api/objects")
      #expect(objects.status == 401)
    }
  }

  @Test func anIdleStreamGetsHeartbeats() async throws {
    var limits = InspectorHub.Limits()
    limits.heartbeat = .milliseconds(100)
    try await withInspector(try await Inspector.start(port: 0, host: "127.0.0.1", allowRemote: false, limits: limits)) { inspector in
      let reader = try await SSEReader(port: inspector.port, token: inspector.token)
      #expect(try await reader.events(1).map(\.kind) == ["hello"])
      // Only comments come on an idle stream; two of them within ten seconds even on a busy machine.
      var events: [SSEReader.Event] = []
      let deadline = ContinuousClock.now + .seconds(10)
      while reader.heartbeats < 2, ContinuousClock.now < deadline {
        events += try await reader.events(1, within: 0.2)
      }
      #expect(reader.heartbeats >= 2)
      #expect(events.isEmpty)
    }
  }

  @Test func aRemoteHostNeedsAllowRemote() async throws {
    await #expect(throws: Inspector.StartError.self) {
      _ = try await Inspector.start(port: 0, host: "0.0.0.0")
    }
  }

  @Test func aReconnectWithLastEventIDReplaysWithoutDuplicates() async throws {
    try await withInspector(try await Self.start()) { inspector in
      let fake = FakeObject()
      let id = inspector.attach(name: "fake", inspected: fake.inspected, records: fake.records) { [$0] }
      for number in 1...3 { fake.continuation.yield(FakeObject.step("e\(number)", number)) }
      try await waitUntil { inspector.hub.lastSequence(id) == 4 }

      let first = try await SSEReader(port: inspector.port, token: inspector.token)
      let opening = try await first.events(3)
      #expect(opening.map(\.kind) == ["hello", "attached", "snapshot"])
      #expect(opening[2].json["state"] as? String == "s3")
      for number in 4...6 { fake.continuation.yield(FakeObject.step("e\(number)", number)) }
      let live = try await first.events(3)
      #expect(live.map(\.seq) == [5, 6, 7])
      let lastID = try #require(live.last?.id)
      #expect(lastID == "\(id):7")
      first.close()

      for number in 7...9 { fake.continuation.yield(FakeObject.step("e\(number)", number)) }
      try await waitUntil { inspector.hub.lastSequence(id) == 10 }
      let second = try await SSEReader(port: inspector.port, token: inspector.token, lastEventID: lastID)
      let resumed = try await second.events(4)
      #expect(resumed.map(\.kind) == ["hello", "step", "step", "step"])
      #expect(resumed.dropFirst().map(\.seq) == [8, 9, 10])
      #expect(resumed.dropFirst().map { $0.json["event"] as? String } == ["e7", "e8", "e9"])
      let more = try await second.events(1, within: 0.3)
      #expect(more.isEmpty, "nothing is sent twice")
    }
  }

  @Test func aDeallocatedObjectIsDetached() async throws {
    try await withInspector(try await Self.start()) { inspector in
      let fake = FakeObject()
      let id = inspector.attach(name: "fake", inspected: fake.inspected, records: fake.records) { [$0] }
      let reader = try await SSEReader(port: inspector.port, token: inspector.token)
      #expect(try await reader.events(2).map(\.kind) == ["hello", "attached"])
      fake.alive = false
      let events = try await reader.events(until: { $0.kind == "detached" }, within: 20)
      #expect(events.last?.kind == "detached")
      #expect(events.last?.json["object"] as? String == id)
      #expect(inspector.hub.inspected(id) == nil)
      // An object whose record stream ends is detached too.
      let other = FakeObject()
      let otherID = inspector.attach(name: "other", inspected: other.inspected, records: other.records) { [$0] }
      other.continuation.finish()
      let more = try await reader.events(until: { $0.kind == "detached" }, within: 20)
      #expect(more.last?.json["object"] as? String == otherID)
    }
  }

  @Test func anObjectThatCameAndWentBetweenTwoReadsIsShownDetached() {
    let hub = InspectorHub()
    var cursor = StreamCursor(lastEventID: nil)
    let fake = FakeObject()
    let id = hub.register(name: "brief", inspected: fake.inspected)
    hub.append(FakeObject.step("go", 1), to: id)
    hub.detach(id)
    let events = hub.drain(&cursor).components(separatedBy: "\n\n").filter { !$0.isEmpty }
    let kinds = events.map { event in
      event.split(separator: "\n").first { $0.hasPrefix("data: ") }.flatMap {
        (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8))) as? [String: Any]
      }?["kind"] as? String
    }
    #expect(kinds == ["attached", "snapshot", "detached"])
    #expect(hub.drain(&cursor).isEmpty, "nothing twice")
  }

  @Test func aSlowClientKeepsTheServerBoundedAndGetsAGap() async throws {
    let capacity = 1_000
    try await withInspector(try await Self.start(ringCapacity: capacity)) { inspector in
      let fake = FakeObject()
      let id = inspector.attach(name: "busy", inspected: fake.inspected, records: fake.records) { [$0] }
      let reader = try await SSEReader(port: inspector.port, token: inspector.token)
      #expect(try await reader.events(2).map(\.kind) == ["hello", "attached"])

      // The client stops reading; 100,000 records go through the hub.
      let count = 100_000
      for number in 1...count { fake.continuation.yield(FakeObject.step("tick", number)) }
      try await waitUntil(seconds: 40) { inspector.hub.lastSequence(id) == UInt64(count + 1) }
      #expect(inspector.hub.ringCount(id) == capacity)

      // Reading again: the records the sockets held, then gaps for the records that fell off the
      // ring before the stream could write them, and the ring's last records. Every record is
      // read once or counted lost, in order.
      let events: [SSEReader.Event]
      do {
        events = try await reader.events(until: { $0.seq == count + 1 }, within: 40)
      } catch {
        Issue.record("the stream ended after \(reader.received) events, \(inspector.hub.openStreams) open: \(error)")
        return
      }
      var expected = 2
      var lost = 0
      var read = 0
      var gaps = 0
      var inOrder = true
      for event in events {
        if event.kind == "gap" {
          let missing = event.json["lost"] as? Int ?? 0
          gaps += 1
          lost += missing
          expected += missing
        } else {
          if event.seq != expected { inOrder = false }
          expected = event.seq + 1
          read += 1
        }
      }
      #expect(inOrder, "records arrive in order, each jump announced by a gap")
      #expect(gaps >= 1)
      #expect(lost > 0)
      #expect(read + lost == count, "every record is read once or counted lost")
      #expect(events.last?.seq == count + 1)
    }
  }
}

/// Runs `body` with the inspector `start` gives, and stops it before returning, also when `body`
/// throws: no test's server is still being torn down while the next test runs (a `stop()` left
/// to a task in a `defer` did that).
func withInspector<T>(_ start: @autoclosure () async throws -> Inspector, _ body: (Inspector) async throws -> T) async throws -> T {
  let inspector = try await start()
  do {
    let value = try await body(inspector)
    await inspector.stop()
    return value
  } catch {
    await inspector.stop()
    throw error
  }
}

/// Polls `condition` until it holds (or fails the test after `seconds`).
func waitUntil(seconds: Double = 5, _ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record("condition not met within \(seconds) s")
      return
    }
    try await Task.sleep(for: .milliseconds(10))
  }
}
#endif
