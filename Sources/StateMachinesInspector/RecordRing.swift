#if Inspector
/// The last records of one object, bounded: the ring a reconnecting page resumes from. When it
/// is full, appending drops the oldest record; a client still behind it is told how many it lost
/// (a `gap` record), never handed an unbounded backlog.
struct RecordRing {
  /// One record, encoded once for every client.
  struct Entry: Sendable {
    /// Per object: 1, 2, 3 … in the order the hub received the records.
    let sequence: UInt64
    /// Hub-wide order of arrival, to interleave several objects' records as they happened.
    let arrival: UInt64
    /// The record's JSON line.
    let json: String
  }

  /// At most this many records are kept.
  let capacity: Int
  private var storage: [Entry] = []
  /// The index in `storage` of the oldest entry, once `storage` is full.
  private var head = 0
  /// The sequence number of the newest entry; 0 before the first.
  private(set) var lastSequence: UInt64 = 0

  init(capacity: Int) {
    precondition(capacity > 0, "a ring keeps at least one record")
    self.capacity = capacity
    storage.reserveCapacity(min(capacity, 1024))
  }

  /// How many records the ring holds.
  var count: Int { storage.count }

  /// The sequence number of the oldest record kept (`lastSequence + 1` while empty).
  var firstSequence: UInt64 { lastSequence + 1 - UInt64(storage.count) }

  /// Appends a record and numbers it.
  mutating func append(arrival: UInt64, json: (UInt64) -> String) -> Entry {
    lastSequence += 1
    let entry = Entry(sequence: lastSequence, arrival: arrival, json: json(lastSequence))
    if storage.count < capacity {
      storage.append(entry)
    } else {
      storage[head] = entry
      head = (head + 1) % capacity
    }
    return entry
  }

  /// The first record after `sequence` that the ring still holds, if any.
  func entry(after sequence: UInt64) -> Entry? {
    let wanted = max(sequence + 1, firstSequence)
    guard wanted <= lastSequence else { return nil }
    let offset = Int(wanted - firstSequence)
    return storage[(head + offset) % storage.count]
  }

  /// How many records after `sequence` were dropped before a client read them.
  func lost(after sequence: UInt64) -> UInt64 {
    firstSequence > sequence + 1 ? firstSequence - sequence - 1 : 0
  }
}
#endif
