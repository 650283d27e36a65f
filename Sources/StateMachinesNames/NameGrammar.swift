/// What a valid state or event name is (Semantics §Names; Hierarchy N4).
///
/// Names compare as Swift `String`s do, by canonical equivalence: `"état"` written precomposed or
/// decomposed is one name. Nothing here compares bytes.
public enum NameGrammar {
  /// Checks a state's own name (one path component): not empty, and without `/`, `@` or `,`.
  @inlinable
  public static func checkStateName(_ name: some StringProtocol) throws(NameError) {
    if name.isEmpty { throw .empty }
    // A scan of bytes: the separators are ASCII, and a UTF-8 continuation byte never equals one.
    if name.utf8.contains(where: isSeparator) { throw .reservedCharacter(String(name)) }
  }

  /// Checks an event's name: not empty. (Events are not paths: `a.b` and `x/y` are fine.)
  @inlinable
  public static func checkEventName(_ name: some StringProtocol) throws(NameError) {
    if name.isEmpty { throw .empty }
  }

  /// Whether `byte` separates path components or configurations: `/`, `@` or `,`.
  @inlinable
  public static func isSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: ",")
  }

  /// The stricter rule of the JSON definition format, whose names are meant to become identifiers
  /// in any language: an ASCII letter first, then ASCII letters, digits, `_`, `-` and spaces.
  /// Checked on the name's canonical form: U+212A KELVIN SIGN is `"K"` (the only scalar that is
  /// canonically equal to one of these characters).
  @inlinable
  public static func isPortable(_ name: String) -> Bool {
    var bytes = name.utf8.makeIterator()
    if !name.utf8.allSatisfy({ $0 < 0x80 }) {
      let folded = String(String.UnicodeScalarView(name.unicodeScalars.map { $0 == "\u{212A}" ? "K" : $0 }))
      return folded.utf8.allSatisfy { $0 < 0x80 } && isPortable(folded)
    }
    guard let first = bytes.next(), isASCIILetter(first) else { return false }
    while let byte = bytes.next() {
      guard isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ")
      else { return false }
    }
    return true
  }

  /// Checks ``isPortable(_:)``.
  @inlinable
  public static func checkPortable(_ name: String) throws(NameError) {
    if !isPortable(name) { throw .notPortable(name) }
  }

  @usableFromInline
  static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }
}
