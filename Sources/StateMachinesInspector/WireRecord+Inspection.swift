#if Inspector
import Foundation
import StateMachines

extension WireRecord {
  /// The wire form of a core record: the fields that apply to its kind, the payload as text
  /// (`payload`, what the page may see of the record's own).
  init(_ record: InspectionRecord, payload: (any Sendable)? = nil) {
    let payload: (any Sendable)? = payload != nil ? payload : record.payload
    var fields: [String: InspectorJSON] = [
      "time": .string(record.date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
      "recordSequence": InspectorJSON(record.sequence),
      "state": .string(record.state),
      "terminated": .bool(record.terminated),
    ]
    if let event = record.event { fields["event"] = .string(event) }
    if let source = record.source { fields["source"] = .string(source.description) }
    if let payload { fields["payload"] = .string(PayloadText.describe(payload)) }
    if let reason = record.reason { fields["reason"] = .string(reason) }
    switch record.kind {
    case .snapshot:
      fields["configuration"] = InspectorJSON(record.configuration)
      fields["runningInvocations"] = InspectorJSON(record.runningInvocations)
    case .step:
      fields["configuration"] = InspectorJSON(record.configuration)
      fields["exited"] = InspectorJSON(record.exited)
      fields["entered"] = InspectorJSON(record.entered)
      fields["transitions"] = .array(record.transitions.map { InspectorJSON($0) })
      if let duration = record.duration {
        let (seconds, attoseconds) = duration.components
        fields["duration"] = .number(Double(seconds) + Double(attoseconds) / 1e18)
      }
    case .invoke:
      if let invocation = record.invocation {
        fields["invocation"] = .object([
          "id": .string(invocation.id), "generation": InspectorJSON(invocation.generation),
          "state": .string(invocation.state), "phase": .string(invocation.phase.rawValue),
        ])
      }
    case .event, .rejected:
      break
    }
    self.init(kind: record.kind.rawValue, fields: fields)
  }
}

/// How a payload is shown: JSON when it is `Encodable`, else `String(reflecting:)`; at most
/// 2 KiB of either (Inspecting B.4), so that a large payload cannot bloat the ring.
enum PayloadText {
  static let limit = 2048

  static func describe(_ payload: any Sendable) -> String {
    var text: String
    if let json = payload as? InspectorJSON {
      text = json.description
    } else if let encodable = payload as? any Encodable, let data = try? encoder.encode(encodable) {
      text = String(decoding: data, as: UTF8.self)
    } else {
      text = String(reflecting: payload)
    }
    if text.utf8.count > limit {
      // Cut between Unicode scalars, never inside one.
      var kept = String.UnicodeScalarView()
      var bytes = 0
      for scalar in text.unicodeScalars {
        bytes += UTF8.width(scalar)
        if bytes > limit { break }
        kept.append(scalar)
      }
      text = String(kept) + "…"
    }
    return text
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
#endif
