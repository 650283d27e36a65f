#if Inspector
import FlyingSocks
import Foundation

/// One client's `/api/stream`: pulls the records it has not seen from the hub's rings, so that
/// a client that reads slowly holds no queue of its own — the socket stops being written, the
/// rings go on turning, and the client gets a `gap` when it reads again.
///
/// `@unchecked Sendable`: the response's body iterator is its only user, one call at a time.
final class StreamSession: @unchecked Sendable {
  let id: Int
  private let hub: InspectorHub
  private(set) var cursor: StreamCursor
  private var wakes: AsyncStream<Void>.Iterator
  private var saidHello = false
  private var lastWrite = ContinuousClock.now
  private let heartbeatTask: Task<Void, Never>

  init(id: Int, hub: InspectorHub, cursor: StreamCursor, wakes: AsyncStream<Void>, waker: AsyncStream<Void>.Continuation) {
    self.id = id
    self.hub = hub
    self.cursor = cursor
    self.wakes = wakes.makeAsyncIterator()
    let interval = hub.limits.heartbeat
    heartbeatTask = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        waker.yield()
      }
    }
  }

  deinit {
    heartbeatTask.cancel()
    hub.closeStream(id)
  }

  /// The next piece of the stream: `hello` first, then records, or a heartbeat comment after a
  /// quiet interval; `nil` when the server stops.
  func next() async -> String? {
    if !saidHello {
      saidHello = true
      return ServerSentEvent.hello + hub.drain(&cursor)
    }
    while true {
      let text = hub.drain(&cursor)
      if !text.isEmpty {
        lastWrite = .now
        return text
      }
      guard await wakes.next() != nil else { return nil }
      if ContinuousClock.now - lastWrite >= hub.limits.heartbeat {
        let text = hub.drain(&cursor)
        lastWrite = .now
        return text.isEmpty ? ServerSentEvent.heartbeat : text
      }
    }
  }

  /// The session as a response body: bytes for FlyingFox's chunked encoder.
  var body: SSEBytes { SSEBytes(session: self) }
}

/// A stream session's bytes as the `AsyncBufferedSequence` a FlyingFox response body reads.
struct SSEBytes: AsyncBufferedSequence {
  typealias Element = UInt8
  let session: StreamSession

  func makeAsyncIterator() -> Iterator { Iterator(session: session) }

  struct Iterator: AsyncBufferedIteratorProtocol {
    let session: StreamSession
    private var pending: [UInt8] = []
    private var offset = 0

    init(session: StreamSession) { self.session = session }

    mutating func next() async -> UInt8? {
      guard let buffer = await nextBuffer(suggested: 1) else { return nil }
      return buffer.first
    }

    mutating func nextBuffer(suggested count: Int) async -> ArraySlice<UInt8>? {
      if offset == pending.count {
        guard let text = await session.next() else { return nil }
        pending = Array(text.utf8)
        offset = 0
      }
      let end = Swift.min(pending.count, offset + Swift.max(count, 1))
      defer { offset = end }
      return pending[offset..<end]
    }
  }
}
#endif
