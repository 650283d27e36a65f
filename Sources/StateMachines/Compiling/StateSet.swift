/// A set of state indices as a bitset: a configuration, an exit set or an entry set. Iteration
/// is in index order, which is document order (HIERARCHY.md N2).
@usableFromInline
struct StateSet: Equatable, Sendable {
  @usableFromInline var words: [UInt64]

  @usableFromInline
  init(capacity: Int) {
    words = Array(repeating: 0, count: (capacity + 63) / 64)
  }

  @usableFromInline func contains(_ state: Int32) -> Bool {
    state >= 0 && Int(state >> 6) < words.count && words[Int(state >> 6)] & (1 << UInt64(state & 63)) != 0
  }

  @usableFromInline
  mutating func insert(_ state: Int32) {
    words[Int(state >> 6)] |= 1 << UInt64(state & 63)
  }

  mutating func remove(_ state: Int32) {
    words[Int(state >> 6)] &= ~(1 << UInt64(state & 63))
  }

  mutating func formUnion(_ other: StateSet) {
    for index in words.indices { words[index] |= other.words[index] }
  }

  mutating func subtract(_ other: StateSet) {
    for index in words.indices { words[index] &= ~other.words[index] }
  }

  func intersects(_ other: StateSet) -> Bool {
    words.indices.contains { words[$0] & other.words[$0] != 0 }
  }

  var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

  /// The members in ascending (document) order.
  var members: [Int32] {
    var result: [Int32] = []
    for (index, word) in words.enumerated() {
      var bits = word
      while bits != 0 {
        let bit = bits.trailingZeroBitCount
        result.append(Int32(index * 64 + bit))
        bits &= bits - 1
      }
    }
    return result
  }
}
