/// A set of state indices as a bitset: a configuration, an exit set or an entry set. Iteration
/// is in index order, which is document order (Hierarchy N2).
///
/// The first 64 states live inline, so a set of a small machine never allocates; larger machines
/// keep the rest in an array.
@usableFromInline
struct StateSet: Hashable, Sendable, Sequence {
  /// States 0–63.
  @usableFromInline var low: UInt64 = 0
  /// States 64 and up, 64 per word.
  @usableFromInline var high: [UInt64]

  @usableFromInline
  init(capacity: Int) {
    high = capacity > 64 ? Array(repeating: 0, count: (capacity - 1) / 64) : []
  }

  @inlinable func contains(_ state: Int32) -> Bool {
    if state < 0 { return false }
    if state < 64 { return low & (1 << UInt64(state)) != 0 }
    let word = Int(state >> 6) - 1
    return word < high.count && high[word] & (1 << UInt64(state & 63)) != 0
  }

  @inlinable
  mutating func insert(_ state: Int32) {
    if state < 64 { low |= 1 << UInt64(state) } else { high[Int(state >> 6) - 1] |= 1 << UInt64(state & 63) }
  }

  @inlinable
  mutating func remove(_ state: Int32) {
    if state < 64 { low &= ~(1 << UInt64(state)) } else { high[Int(state >> 6) - 1] &= ~(1 << UInt64(state & 63)) }
  }

  @inlinable
  mutating func formUnion(_ other: StateSet) {
    low |= other.low
    for index in high.indices { high[index] |= other.high[index] }
  }

  @inlinable
  mutating func subtract(_ other: StateSet) {
    low &= ~other.low
    for index in high.indices { high[index] &= ~other.high[index] }
  }

  @inlinable
  func intersects(_ other: StateSet) -> Bool {
    low & other.low != 0 || high.indices.contains { high[$0] & other.high[$0] != 0 }
  }

  @inlinable
  var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

  /// The members in ascending (document) order, as an array.
  @inlinable
  var members: [Int32] { Array(self) }

  @inlinable
  func makeIterator() -> Iterator { Iterator(set: self) }

  /// Walks the members in ascending order without allocating.
  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline let set: StateSet
    @usableFromInline var word = -1
    @usableFromInline var bits: UInt64

    @inlinable
    init(set: StateSet) {
      self.set = set
      bits = set.low
    }

    @inlinable
    mutating func next() -> Int32? {
      while bits == 0 {
        word += 1
        guard word < set.high.count else { return nil }
        bits = set.high[word]
      }
      let bit = bits.trailingZeroBitCount
      bits &= bits - 1
      return Int32((word + 1) * 64 + bit)
    }
  }
}
