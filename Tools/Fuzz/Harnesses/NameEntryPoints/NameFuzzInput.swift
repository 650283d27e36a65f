// The names harness's reading of the fuzzer's bytes: a header of flags, then records separated by
// newlines. Names are the records' bytes decoded as UTF-8 with replacement, so they may be
// anything, malformed input included.
import Foundation

struct NameFuzzInput {
  /// At most this many records, of at most this many bytes each: every execution stays short.
  static let maxRecords = 24
  static let maxRecordBytes = 256

  /// Four bytes of flags and shape; missing bytes read as 0.
  let header: [UInt8]
  /// What follows the header, split at each newline (0x0A).
  let records: [ArraySlice<UInt8>]

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    let head = Array(bytes.prefix(4))
    header = head + [UInt8](repeating: 0, count: 4 - head.count)
    var records: [ArraySlice<UInt8>] = []
    let body = Array(bytes.dropFirst(4))
    var start = 0
    while start <= body.count, records.count < Self.maxRecords {
      let end = body[start...].firstIndex(of: 0x0A) ?? body.count
      records.append(body[start..<min(end, start + Self.maxRecordBytes)])
      start = end + 1
    }
    self.records = records
  }

  /// A statechart (nested states, regions) rather than a flat machine.
  var isChart: Bool { header[0] & 0x01 != 0 }
  /// The pool's names are declared in their second spelling.
  var declaresSecondSpelling: Bool { header[0] & 0x02 != 0 }
  /// Transitions name their states and events in the spelling that was not declared.
  var referencesOtherSpelling: Bool { header[0] & 0x04 != 0 }
  /// A statechart's transitions name states by path (`c0/c2/c3`, `p0@1/r3`), not bare names.
  var referencesByPath: Bool { header[0] & 0x08 != 0 }
  /// Machines are started explicitly when made, rather than on first use.
  var startsMachines: Bool { header[0] & 0x10 != 0 }
  /// How many of the first records name a state or event of the definition (0 to 3).
  var definitionNameCount: Int { Int(header[0] >> 5) & 3 }
  /// Transitions of the fixed shape that are left out, one bit each.
  var omittedTransitions: Int { Int(header[1]) | Int(header[2]) << 8 }
  /// Where the pool starts when names are given to the definition's slots.
  var rotation: Int { Int(header[3]) }

  /// The bytes that decide the definition: the header and the records that name its slots.
  var definitionKey: [UInt8] {
    var key = header
    for record in records.prefix(definitionNameCount) { key += [UInt8(truncatingIfNeeded: record.count)] + record }
    return key
  }

  /// A name from bytes, as a caller with arbitrary data would make one.
  static func name(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

  /// The name an operation uses: its bytes as they are, or a name the definition knows (picked by
  /// the first byte) in another spelling, or with the rest of the bytes around it (path syntax:
  /// `a/`, `/a`, `a@0`), or a huge repetition.
  static func callName(_ mode: UInt8, _ payload: ArraySlice<UInt8>, known: [String]) -> String {
    let raw = name(payload)
    guard !known.isEmpty, mode & 7 != 0 else { return raw }
    let pick = known[Int(payload.first ?? 0) % known.count]
    let rest = name(payload.dropFirst())
    switch mode & 7 {
    case 1: return pick
    case 2: return pick.decomposedStringWithCanonicalMapping
    case 3: return pick.precomposedStringWithCanonicalMapping
    case 4: return pick + rest
    case 5: return rest + pick
    case 6: return String(repeating: raw.isEmpty ? pick : raw, count: 4096 / max(1, payload.count, pick.utf8.count))
    default: return pick.decomposedStringWithCanonicalMapping + rest
    }
  }
}
