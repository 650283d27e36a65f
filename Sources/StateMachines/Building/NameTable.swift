/// Looks names up without general-purpose string hashing: `fire("suspend")` and
/// `isInState("active")` find the index with an FNV-1a hash of the name's UTF-8 bytes (a few
/// instructions per byte; the standard `Hasher` is seeded SipHash) in an open-addressing table,
/// then one string compare.
@usableFromInline
struct NameTable: Sendable {
  /// `index + 1` of the name in that slot, 0 for an empty slot. At least twice as many slots as
  /// names, a power of two.
  @usableFromInline let slots: [Int32]
  @usableFromInline let names: [String]

  /// A table of `names`; the first of two equal names wins.
  init(_ names: [String]) {
    self.names = names
    var capacity = 4
    while capacity < names.count * 2 { capacity <<= 1 }
    var slots = [Int32](repeating: 0, count: capacity)
    for (index, name) in names.enumerated() {
      var slot = Self.hash(name) & (capacity - 1)
      var duplicate = false
      while slots[slot] != 0 {
        if names[Int(slots[slot]) - 1] == name {
          duplicate = true
          break
        }
        slot = (slot + 1) & (capacity - 1)
      }
      if !duplicate { slots[slot] = Int32(index + 1) }
    }
    self.slots = slots
  }

  /// The index of `name`, or `nil` if it is not in the table.
  @inlinable
  func index(of name: String) -> Int32? {
    let mask = slots.count &- 1
    var slot = Self.hash(name) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return nil }
      if names[Int(entry &- 1)] == name { return entry &- 1 }
      slot = (slot &+ 1) & mask
    }
  }

  /// FNV-1a over the UTF-8 bytes (iterated in place: no copy of a small string).
  @inlinable
  static func hash(_ name: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: hash ^ (hash >> 32))
  }
}
