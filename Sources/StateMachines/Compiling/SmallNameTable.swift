/// The names of a ``NameTable`` that fit in a small string, keyed by the string's own two words:
/// the first lookup of `fire("suspend")`, which compares words instead of hashing bytes and
/// comparing strings.
///
/// On a 64-bit platform `String` keeps a string of at most 15 UTF-8 bytes inside its two words
/// (a small string): the first 8 bytes in the first word, the next 7 in the low bytes of the
/// second, the unused ones zero, and the count and the discriminator of the stable string ABI in
/// the top byte (bit 61 set: small; bit 60 clear: not foreign). Two small strings with the same
/// words have the same bytes, so they are equal. A name is entered by the words of its small
/// form; a query that is not small, or misses, goes on to the table's byte lookup, which finds
/// every spelling. So a layout other than the one described here (another platform, a future
/// standard library) only costs speed: the answer comes from the byte lookup.
@usableFromInline
struct SmallNameTable: Sendable {
  /// One slot: the two words of a name's small string, and its index. An empty slot has
  /// `second == 0` (a small string's second word has bit 61 set).
  @usableFromInline
  struct Slot: Sendable {
    @usableFromInline var first: UInt64 = 0
    @usableFromInline var second: UInt64 = 0
    @usableFromInline var index: Int32 = 0

    @inlinable init() {}
  }

  /// At least twice as many slots as names, a power of two (empty when no name fits).
  @usableFromInline let slots: [Slot]

  /// The small-string words of `names[i]` at index `i`, for every `i` in `indices` (the
  /// table's first spelling of each name) whose name is a small string; the others are left to
  /// the byte lookup.
  init(_ names: [String], indices: [Int]) {
    let entries = indices.compactMap { index in
      // A copy of the bytes is a small string if they fit, however the declared one was made.
      Self.words(of: String(decoding: Array(names[index].utf8), as: UTF8.self)).map { (words: $0, index: index) }
    }
    var capacity = 4
    while capacity < entries.count * 2 { capacity <<= 1 }
    var slots = [Slot](repeating: Slot(), count: entries.isEmpty ? 0 : capacity)
    for entry in entries {
      var slot = Self.hash(entry.words.first, entry.words.second) & (capacity - 1)
      while slots[slot].second != 0 { slot = (slot + 1) & (capacity - 1) }
      slots[slot].first = entry.words.first
      slots[slot].second = entry.words.second
      slots[slot].index = Int32(truncatingIfNeeded: entry.index)
    }
    self.slots = slots
  }

  /// The index of `name` if it is a small string entered with the same words; `nil` otherwise
  /// (not necessarily absent from the table: ask its byte lookup).
  @inlinable @inline(__always)
  func index(of name: String) -> Int32? {
    guard let (first, second) = Self.words(of: name), !slots.isEmpty else { return nil }
    return slots.withUnsafeBufferPointer { slots in
      let mask = slots.count &- 1
      var slot = Self.hash(first, second) & mask
      while true {
        let entry = slots[slot]
        if entry.second == 0 { return nil }
        if entry.first == first && entry.second == second { return entry.index }
        slot = (slot &+ 1) & mask
      }
    }
  }

  /// The two words of `name` if it is a small string on a platform whose layout this reads.
  @inlinable @inline(__always)
  static func words(of name: String) -> (first: UInt64, second: UInt64)? {
    #if _pointerBitWidth(_64) && _endian(little)
    guard MemoryLayout<String>.size == 16 else { return nil }
    let (first, second) = unsafeBitCast(name, to: (UInt64, UInt64).self)
    guard second & 0x3000_0000_0000_0000 == 0x2000_0000_0000_0000 else { return nil }
    return (first, second)
    #else
    return nil
    #endif
  }

  /// A multiplicative hash of the two words (the second holds the count).
  @inlinable @inline(__always)
  static func hash(_ first: UInt64, _ second: UInt64) -> Int {
    let hash = (first ^ (second &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: hash ^ (hash &>> 29))
  }
}
