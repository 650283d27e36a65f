/// Armed timeouts ordered by deadline: a binary heap of deadlines plus the live entries by ID.
///
/// Cancelling removes the entry at once; its heap record goes when it reaches the top, or when
/// dead records outnumber live ones (then the heap is rebuilt). So the memory held is bounded by
/// the timeouts armed now, whatever was armed and cancelled before.
struct TimeoutQueue<Instant: Comparable> {
  typealias Fire = @Sendable () async -> Void

  private var heap: [(deadline: Instant, id: UInt64)] = []
  private var live: [UInt64: Fire] = [:]
  private var nextID: UInt64 = 0

  /// The number of timeouts armed now.
  var count: Int { live.count }

  /// Arms `fire` for `deadline`; returns the ID that cancels it.
  mutating func insert(_ deadline: Instant, _ fire: @escaping Fire) -> UInt64 {
    nextID &+= 1
    live[nextID] = fire
    heap.append((deadline, nextID))
    siftUp(heap.count - 1)
    return nextID
  }

  /// Cancels a timeout; an unknown or delivered ID is ignored.
  mutating func remove(_ id: UInt64) {
    guard live.removeValue(forKey: id) != nil else { return }
    if live.isEmpty {
      heap = []
      live = [:]
    } else if heap.count > 2 * live.count + 64 {
      heap.removeAll { live[$0.id] == nil }
      for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
      live = Dictionary(uniqueKeysWithValues: live.map { ($0.key, $0.value) })
    }
  }

  /// The earliest deadline of a live timeout.
  mutating func earliestDeadline() -> Instant? {
    dropDeadTop()
    return heap.first?.deadline
  }

  /// Removes and returns the live timeouts due at `now`, earliest first.
  mutating func popDue(at now: Instant) -> [Fire] {
    var due: [Fire] = []
    while true {
      dropDeadTop()
      guard let top = heap.first, top.deadline <= now else { break }
      popTop()
      if let fire = live.removeValue(forKey: top.id) { due.append(fire) }
    }
    if live.isEmpty {
      heap = []
      live = [:]
    }
    return due
  }

  private mutating func dropDeadTop() {
    while let top = heap.first, live[top.id] == nil { popTop() }
  }

  private mutating func popTop() {
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    if !heap.isEmpty { siftDown(0) }
  }

  private func precedes(_ a: Int, _ b: Int) -> Bool {
    heap[a].deadline < heap[b].deadline || (heap[a].deadline == heap[b].deadline && heap[a].id < heap[b].id)
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(child, parent) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < heap.count, precedes(left, first) { first = left }
      if right < heap.count, precedes(right, first) { first = right }
      guard first != parent else { return }
      heap.swapAt(parent, first)
      parent = first
    }
  }
}
