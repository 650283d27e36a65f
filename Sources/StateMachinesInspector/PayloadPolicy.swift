#if Inspector
import Foundation
import StateMachines

/// What an attached object's payloads look like on either side of the page (Inspecting B.4):
/// the types that JSON payloads sent from the page decode into, per event, and what the page may
/// see of a recorded payload.
struct PayloadPolicy: Sendable {
  /// Decodes an event's JSON payload into the type the app registered for the event.
  private let decoders: [String: @Sendable (Data) throws -> any Sendable]
  private let redact: (@Sendable (_ event: String?, _ payload: any Sendable) -> (any Sendable)?)?

  /// - Parameters:
  ///   - types: per event name, the type its payloads decode into. Names compare by canonical
  ///     equivalence, as Swift strings do.
  ///   - redact: what the page shows instead of a recorded payload; `nil` from it hides the payload.
  init(
    types: [String: any (Decodable & Sendable).Type] = [:],
    redact: (@Sendable (_ event: String?, _ payload: any Sendable) -> (any Sendable)?)? = nil
  ) {
    decoders = types.mapValues { type in { data in try Self.decode(type, data) } }
    self.redact = redact
  }

  /// The payload to fire `event` with: `json` decoded into the registered type, or `json` itself
  /// when the event has no registered type. No payload stays no payload.
  ///
  /// - Throws: ``PayloadDecodingFailure`` when `json` does not decode into the registered type.
  func payload(for event: String, _ json: InspectorJSON?) throws(PayloadDecodingFailure) -> (any Sendable)? {
    guard let json else { return nil }
    guard let decode = decoders[event] else { return json }
    do {
      return try decode(JSONEncoder().encode(json))
    } catch {
      throw PayloadDecodingFailure(event: event, underlying: String(describing: error))
    }
  }

  /// What the page may see of the record's payload: what `redact` returns for it.
  func shownPayload(of record: InspectionRecord) -> (any Sendable)? {
    guard let redact, let payload = record.payload else { return record.payload }
    return redact(record.event, payload) ?? Redacted()
  }

  private static func decode<Payload: Decodable & Sendable>(_ type: Payload.Type, _ data: Data) throws -> any Sendable {
    try JSONDecoder().decode(type, from: data)
  }
}

/// A JSON payload sent from the page that does not decode into the type registered for its event.
struct PayloadDecodingFailure: Error, CustomStringConvertible {
  let event: String
  let underlying: String

  var description: String { "the payload of '\(event)' does not decode into its registered type: \(underlying)" }
}

/// What the page shows for a payload that `redact` hid.
private struct Redacted: Sendable, CustomDebugStringConvertible {
  var debugDescription: String { "(redacted)" }
}
#endif
