/// Looks names up without general-purpose string hashing: `fire("suspend")` and
/// `isInState("active")` find the index with a cheap multiplicative hash of the name's UTF-8
/// bytes (the standard `Hasher` is seeded SipHash) in an open-addressing table, then one string
/// compare. Each slot keeps high bits of its name's hash, so a collision is passed over without
/// comparing strings.
///
/// Names compare as Swift's `String ==` does, by canonical equivalence (Semantics §Names): `"é"`
/// precomposed and `"e\u{301}"` are one name. Equal ASCII strings have equal bytes, so the byte
/// hash finds every ASCII spelling; a miss falls back to ``canonicalIndex(of:)``, which finds the
/// other spellings. The fast path is unchanged for a name that is in the table.
///
/// A name that fits in a small string (at most 15 UTF-8 bytes: every event name in practice) is
/// looked up first by the string's own words, in ``SmallNameTable``, with no hashing of bytes
/// and no call: the lookup of `fire("suspend")`.
@usableFromInline
struct NameTable: Sendable {
  /// `index + 1` of the name in that slot in the low 32 bits, the high 32 bits of its hash
  /// (``tag(_:)``) in the high ones; 0 for an empty slot. At least twice as many slots as names, a
  /// power of two.
  @usableFromInline let slots: [UInt64]
  @usableFromInline let names: [String]
  /// Every name by `String` key (whose hashing is canonical), when some name is not ASCII: the
  /// fallback of a miss. `nil` for an all-ASCII table, the common case.
  @usableFromInline let canonical: [String: Int32]?
  /// The names that are small strings, by their words: the first lookup.
  @usableFromInline let small: SmallNameTable

  /// A table of `names`; the first of two equal names wins, however each is spelled.
  init(_ names: [String]) {
    self.names = names
    // Equal names with other bytes are found here: a later spelling of a name stays out of the
    // byte table, so a lookup of it misses there and finds the first one here.
    var canonical: [String: Int32]?
    if names.contains(where: { !Self.isASCII($0) }) {
      var byName: [String: Int32] = [:]
      for (index, name) in names.enumerated() where byName[name] == nil { byName[name] = Int32(index) }
      canonical = byName
    }
    self.canonical = canonical
    var capacity = 4
    while capacity < names.count * 2 { capacity <<= 1 }
    var slots = [UInt64](repeating: 0, count: capacity)
    var entered: [Int] = []
    for (index, name) in names.enumerated() {
      if let canonical, canonical[name] != Int32(index) { continue }
      let hash = Self.hash(name)
      var slot = hash & (capacity - 1)
      var duplicate = false
      while slots[slot] != 0 {
        if names[Int(UInt32(truncatingIfNeeded: slots[slot])) - 1] == name {
          duplicate = true
          break
        }
        slot = (slot + 1) & (capacity - 1)
      }
      if !duplicate {
        slots[slot] = Self.tag(hash) | UInt64(index + 1)
        entered.append(index)
      }
    }
    self.slots = slots
    small = SmallNameTable(names, indices: entered)
  }

  /// The index of `name`, or `nil` if it is not in the table.
  @inlinable @inline(__always)
  func index(of name: String) -> Int32? {
    if let index = small.index(of: name) { return index }
    return byteIndex(of: name)
  }

  /// ``index(of:)`` by the bytes of `name`: a name that is not a small string, or is spelled
  /// otherwise than declared, or is not in the table. Out of line: the lookups of the declared
  /// small names never come here.
  @usableFromInline @inline(never)
  func byteIndex(of name: String) -> Int32? {
    let mask = slots.count &- 1
    let hash = Self.hash(name)
    let tag = Self.tag(hash)
    var slot = hash & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return canonicalIndex(of: name) }
      let index = Int32(truncatingIfNeeded: entry) &- 1
      if entry & 0xFFFF_FFFF_0000_0000 == tag && names[Int(index)] == name { return index }
      slot = (slot &+ 1) & mask
    }
  }

  /// The high 32 bits of `hash` in the high half of a slot (the slot number comes from its low
  /// bits, so the two rarely agree by chance).
  @inlinable
  static func tag(_ hash: Int) -> UInt64 {
    UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000
  }

  /// The index of a spelling of `name` whose bytes differ from the declared one's (a miss of the
  /// byte hash), or `nil`. Out of line: only unknown names and other spellings come here.
  @usableFromInline @inline(never)
  func canonicalIndex(of name: String) -> Int32? {
    if let canonical { return canonical[name] }
    // Every name of the table is ASCII. A non-ASCII spelling equals an ASCII name only through a
    // singleton canonical decomposition to ASCII (U+212A KELVIN SIGN is "K"); fold those and look
    // the result up by its bytes. Any other non-ASCII scalar leaves a name no ASCII name equals.
    guard !Self.isASCII(name) else { return nil }
    var folded = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      guard let ascii = scalar.isASCII ? scalar : Self.asciiSingletons[scalar] else { return nil }
      folded.append(ascii)
    }
    // All ASCII now: its lookup hits by bytes or misses without coming back here.
    return index(of: String(folded))
  }

  /// The scalars whose canonical decomposition is one ASCII scalar (Unicode's
  /// `UnicodeData.txt`; `NameTableTests` checks the list against `String ==` over every scalar).
  @usableFromInline static let asciiSingletons: [Unicode.Scalar: Unicode.Scalar] = [
    "\u{212A}": "K", "\u{037E}": ";", "\u{1FEF}": "`",
  ]

  /// Whether every byte of `name` is ASCII.
  @usableFromInline
  static func isASCII(_ name: String) -> Bool { name.utf8.allSatisfy { $0 < 0x80 } }

  /// A multiplicative hash of the UTF-8 bytes, eight at a time, read as one contiguous buffer:
  /// event names are short, so this is one or two multiplications (a byte-by-byte FNV chain, or
  /// iterating the UTF-8 view, costs several times more). Collisions only cost a probe: every hit
  /// is confirmed by a string compare.
  @inlinable
  static func hash(_ name: String) -> Int {
    if let hash = name.utf8.withContiguousStorageIfAvailable(hash(bytes:)) { return hash }
    var copy = name
    return copy.withUTF8(hash(bytes:))
  }

  @inlinable
  static func hash(bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash = UInt64(truncatingIfNeeded: bytes.count) &* multiplier
    let raw = UnsafeRawBufferPointer(bytes)
    var offset = 0
    while offset &+ 8 <= bytes.count {
      hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
      offset &+= 8
    }
    // The last 0–7 bytes in at most three loads (4, 2, 1 bytes), not a loop over bytes.
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    if bytes.count &- offset >= 4 {
      tail = UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
      shift = 32
      offset &+= 4
    }
    if bytes.count &- offset >= 2 {
      tail |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian) &<< shift
      shift &+= 16
      offset &+= 2
    }
    if offset < bytes.count { tail |= UInt64(bytes[offset]) &<< shift }
    hash = (hash ^ tail) &* multiplier
    return Int(truncatingIfNeeded: hash ^ (hash &>> 32))
  }
}
