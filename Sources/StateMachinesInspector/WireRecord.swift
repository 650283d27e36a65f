#if Inspector
import Foundation

/// A record as the wire carries it (protocol `statemachines-inspect/1`): a kind and JSON fields.
/// The server's own kinds (`attached`, `detached`, `gap`, `hello`) and the core's records, once
/// converted, take this one shape, so that the ring, the stream and the tests need no model.
struct WireRecord: Sendable {
  /// `attached`, `snapshot`, `event`, `step`, `rejected`, `invoke`, `detached`, `gap` or `hello`.
  var kind: String
  /// Every field but `object`, `seq` and `kind`, which the hub adds.
  var fields: [String: InspectorJSON]

  init(kind: String, fields: [String: InspectorJSON] = [:]) {
    self.kind = kind
    self.fields = fields
  }

  /// The configuration this record leaves the object in, for the snapshot a new client gets:
  /// snapshots and steps carry one (not a step of one of a store's rows).
  var leavesConfiguration: Bool { (kind == "snapshot" || kind == "step") && fields["instance"] == nil }

  /// The record as one line of JSON, with the object's id and the record's sequence number.
  func json(object: String, sequence: UInt64) -> String {
    var all = fields
    all["object"] = .string(object)
    all["seq"] = InspectorJSON(sequence)
    all["kind"] = .string(kind)
    return InspectorJSON.object(all).description
  }

  /// A snapshot made from the latest configuration-carrying record (for a client that starts
  /// watching an object in the middle of its life).
  static func snapshot(from record: WireRecord) -> WireRecord {
    var fields: [String: InspectorJSON] = [:]
    for key in ["configuration", "state", "terminated", "runningInvocations", "time"] {
      fields[key] = record.fields[key]
    }
    return WireRecord(kind: "snapshot", fields: fields)
  }
}
#endif
