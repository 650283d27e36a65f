#if Inspector
import Foundation

/// The server's state: the attached objects, a bounded ring of records per object, and the open
/// streams to wake when a record arrives. Guarded by a lock: appends come from each object's
/// reader task, reads from each client's response task.
///
/// `@unchecked Sendable`: every stored property is read and written under `lock`.
final class InspectorHub: @unchecked Sendable {
  /// The bounds that keep the server's memory independent of how long it runs.
  struct Limits: Sendable {
    /// Records kept per object for clients that resume or fall behind (Inspecting B.4).
    var ringCapacity = 10_000
    /// Open `/api/stream` responses at once (B.6).
    var maxStreams = 4
    /// A comment line on an idle stream this often, so that a dead client is noticed.
    var heartbeat: Duration = .seconds(15)
    /// Objects kept after they were detached, for clients still reading their last records.
    var maxDetached = 16
    /// Records written to a stream in one chunk.
    var recordsPerChunk = 256

    init() {}
  }

  /// One attached object.
  private final class Object {
    let id: String
    let name: String
    var ring: RecordRing
    /// The latest snapshot or step: the configuration a new client is shown.
    var latest: WireRecord?
    /// `nil` once detached.
    var inspected: InspectedObject?
    /// The SVG drawing, rendered at most once: `.some(nil)` when `dot` failed or is missing.
    var svg: String??

    init(id: String, name: String, capacity: Int, inspected: InspectedObject) {
      self.id = id
      self.name = name
      self.ring = RecordRing(capacity: capacity)
      self.inspected = inspected
    }
  }

  let limits: Limits
  private let lock = NSLock()
  private var objects: [String: Object] = [:]
  /// Object ids in attach order.
  private var order: [String] = []
  private var nextObject = 1
  private var arrivals: UInt64 = 0
  private var wakers: [Int: AsyncStream<Void>.Continuation] = [:]
  private var nextStream = 0
  private var closed = false

  init(limits: Limits = Limits()) {
    self.limits = limits
  }

  // MARK: Objects

  /// Adds an object and records its `attached` record; returns its id.
  func register(name: String, inspected: InspectedObject) -> String {
    lock.withLock {
      let id = String(nextObject)
      nextObject += 1
      objects[id] = Object(id: id, name: name, capacity: limits.ringCapacity, inspected: inspected)
      order.append(id)
      appendLocked(WireRecord(kind: "attached", fields: ["name": .string(name)]), to: id)
      return id
    }
  }

  /// Stores a record of object `id` and wakes the streams.
  func append(_ record: WireRecord, to id: String) {
    lock.withLock { appendLocked(record, to: id) }
  }

  /// Marks object `id` gone: records `detached`, forgets its closures, and drops the oldest
  /// detached objects beyond the limit.
  func detach(_ id: String) {
    lock.withLock {
      guard let object = objects[id], object.inspected != nil else { return }
      object.inspected = nil
      appendLocked(WireRecord(kind: "detached", fields: ["name": .string(object.name)]), to: id)
      let detached = order.filter { objects[$0]?.inspected == nil }
      for old in detached.dropLast(limits.maxDetached) {
        objects[old] = nil
        order.removeAll { $0 == old }
      }
    }
  }

  /// The closures of a live object.
  func inspected(_ id: String) -> InspectedObject? {
    lock.withLock { objects[id]?.inspected }
  }

  /// Ids of the live objects, for the sweep that notices deallocated ones.
  var liveObjects: [(id: String, inspected: InspectedObject)] {
    lock.withLock { order.compactMap { id in objects[id]?.inspected.map { (id, $0) } } }
  }

  /// How many records object `id` keeps (bounded by ``Limits/ringCapacity``).
  func ringCount(_ id: String) -> Int {
    lock.withLock { objects[id]?.ring.count ?? 0 }
  }

  /// The sequence number of object `id`'s newest record (0 before the first).
  func lastSequence(_ id: String) -> UInt64 {
    lock.withLock { objects[id]?.ring.lastSequence ?? 0 }
  }

  /// `GET /api/objects`: every object with its name and latest state.
  func objectList() -> InspectorJSON {
    lock.withLock {
      .array(
        order.compactMap { id in
          guard let object = objects[id] else { return nil }
          return .object([
            "id": .string(id), "name": .string(object.name),
            "state": object.latest?.fields["state"] ?? .null,
            "terminated": object.latest?.fields["terminated"] ?? .bool(false),
            "detached": .bool(object.inspected == nil),
            "store": .bool(object.inspected?.store != nil),
          ])
        })
    }
  }

  /// The object's SVG, rendered by `render` the first time only; `nil` when the object is gone
  /// or `render` gave none.
  func svg(_ id: String, render: (String) -> String?) -> String? {
    let known: (cached: String??, dot: String)? = lock.withLock {
      guard let object = objects[id], let inspected = object.inspected else { return nil }
      return (object.svg, inspected.dot)
    }
    guard let known else { return nil }
    if let cached = known.cached { return cached }
    let svg = render(known.dot)
    lock.withLock { objects[id]?.svg = .some(svg) }
    return svg
  }

  private func appendLocked(_ record: WireRecord, to id: String) {
    guard let object = objects[id] else { return }
    arrivals += 1
    _ = object.ring.append(arrival: arrivals) { record.json(object: id, sequence: $0) }
    if record.leavesConfiguration { object.latest = record }
    for waker in wakers.values { waker.yield() }
  }

  // MARK: Streams

  /// Opens a stream for a client that last saw `lastEventID` (nil for a new page); `nil` when
  /// ``Limits/maxStreams`` are open or the hub is closed.
  func openStream(lastEventID: String?) -> StreamSession? {
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let id: Int? = lock.withLock {
      guard !closed, wakers.count < limits.maxStreams else { return nil }
      nextStream += 1
      wakers[nextStream] = continuation
      return nextStream
    }
    guard let id else { return nil }
    return StreamSession(
      id: id, hub: self, cursor: StreamCursor(lastEventID: lastEventID), wakes: stream, waker: continuation)
  }

  /// Forgets a stream whose client is gone.
  func closeStream(_ id: Int) {
    let waker = lock.withLock { wakers.removeValue(forKey: id) }
    waker?.finish()
  }

  /// How many streams are open.
  var openStreams: Int { lock.withLock { wakers.count } }

  /// Ends every stream; no new one opens.
  func close() {
    let all = lock.withLock {
      closed = true
      defer { wakers = [:] }
      return Array(wakers.values)
    }
    for waker in all { waker.finish() }
  }

  /// The SSE events a client with `cursor` has not seen, at most ``Limits/recordsPerChunk``
  /// records, and moves the cursor past them. A new object gets `attached` and a snapshot; an
  /// object whose ring dropped records the client had not read gets a `gap` with their count.
  func drain(_ cursor: inout StreamCursor) -> String {
    lock.withLock {
      var text = ""
      for id in cursor.objects where objects[id] == nil { cursor.forget(id) }
      for id in order {
        guard let object = objects[id] else { continue }
        guard let position = cursor[id] else {
          // An object the client has not met: `attached` and its latest snapshot, and `detached`
          // when it is already gone (one that lived between two reads is shown too).
          cursor[id] = object.ring.lastSequence
          let head = ServerSentEvent(id: cursor.lastEventID)
          let name: [String: InspectorJSON] = ["name": .string(object.name)]
          text += head.text(WireRecord(kind: "attached", fields: name), object: id, sequence: object.ring.lastSequence)
          if let latest = object.latest {
            text += head.text(WireRecord.snapshot(from: latest), object: id, sequence: object.ring.lastSequence)
          }
          if object.inspected == nil {
            text += head.text(WireRecord(kind: "detached", fields: name), object: id, sequence: object.ring.lastSequence)
          }
          continue
        }
        let lost = object.ring.lost(after: position)
        if lost > 0 {
          cursor[id] = object.ring.firstSequence - 1
          text += ServerSentEvent(id: cursor.lastEventID).text(
            WireRecord(kind: "gap", fields: ["lost": InspectorJSON(lost)]), object: id, sequence: object.ring.firstSequence - 1)
        }
      }
      for _ in 0..<limits.recordsPerChunk {
        var next: (id: String, entry: RecordRing.Entry)?
        for id in order {
          guard let object = objects[id], let position = cursor[id], let entry = object.ring.entry(after: position) else { continue }
          if next == nil || entry.arrival < next!.entry.arrival { next = (id, entry) }
        }
        guard let next else { break }
        cursor[next.id] = next.entry.sequence
        text += ServerSentEvent(id: cursor.lastEventID).text(json: next.entry.json)
      }
      return text
    }
  }
}
#endif
