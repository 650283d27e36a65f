#if Inspector
import Foundation
import StateMachines

extension Inspector {
  /// Shows `model` on the page as `name`, until the model is deallocated (the page then shows
  /// it detached). The inspector holds the model weakly: attaching changes no object's lifetime.
  ///
  /// The model's records (``StateMachines/StateMachineObject/inspectionRecords(bufferingPolicy:isolation:)``)
  /// are read as they come and kept in a bounded ring; events sent from the page go through
  /// ``StateMachines/StateMachineObject/send(_:payload:source:)`` with source
  /// ``StateMachines/InspectionSource/inspector``. A model that is neither isolated to an actor
  /// nor locked must not be used elsewhere while the page sends it events. Attach in debug builds
  /// only.
  ///
  /// ```swift
  /// inspector.attach(cart, name: "cart 42", payloads: ["addItem": Item.self]) { event, payload in
  ///   (payload as? Card).map { "card …\($0.last4)" }   // the page never sees a card number
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - model: The object to show.
  ///   - name: How the page lists it.
  ///   - payloads: Per event name, the type that a JSON payload sent from the page decodes into
  ///     before the event fires, so the model's callbacks read it as they read the app's own
  ///     payloads. A payload that does not decode fires nothing: the page gets a `rejected`
  ///     answer saying why. Other events' payloads arrive as ``InspectorJSON``.
  ///   - redact: What the page shows instead of a recorded payload (the event name is `nil` for
  ///     a record without one); return `nil` to show only `(redacted)`. Without it, a payload
  ///     shows as its JSON when it is `Encodable`, else as `String(reflecting:)`, cut at 2 KiB.
  /// - Returns: The object's id in the inspector's API (`/api/objects/{id}`).
  @discardableResult
  public func attach<Model: StateMachineObject>(
    _ model: Model, name: String, payloads: [String: any (Decodable & Sendable).Type] = [:],
    redact: (@Sendable (_ event: String?, _ payload: any Sendable) -> (any Sendable)?)? = nil
  ) -> String {
    let definition = model.stateMachineDefinition
    let document = (try? JSONEncoder().encode(definition.inspectionDocument)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    let policy = PayloadPolicy(types: payloads, redact: redact)
    let reference = WeakModel(model, policy)
    let inspected = InspectedObject(
      definitionJSON: document, dot: definition.dotDiagram(identifiers: true),
      send: { event, payload in await reference.send(event, payload) },
      isAlive: { reference.isAlive() })
    let sequence = CoreSequence()
    return attach(name: name, inspected: inspected, records: model.inspectionRecords()) { record in
      sequence.wire(record, payload: policy.shownPayload(of: record))
    }
  }
}

/// Notices records that the object's stream dropped before the inspector read them (its
/// buffering policy keeps the newest 4,096): a `gap` record with their count comes first.
///
/// `@unchecked Sendable`: used by the one task that reads the object's records.
final class CoreSequence: @unchecked Sendable {
  private var last: UInt64 = 0

  func wire(_ record: InspectionRecord, payload: (any Sendable)? = nil) -> [WireRecord] {
    defer { last = record.sequence }
    let wire = WireRecord(record, payload: payload)
    guard last > 0, record.sequence > last + 1 else { return [wire] }
    return [WireRecord(kind: "gap", fields: ["lost": InspectorJSON(record.sequence - last - 1)]), wire]
  }
}

/// A model held weakly, its type erased into closures for the server's tasks.
///
/// `@unchecked Sendable`: the closures use the model only through `send`, which hops to the
/// model's actor or takes its lock (a model with neither is the caller's promise of one
/// context), and read `state` the same way.
private final class WeakModel: @unchecked Sendable {
  let send: (String, InspectorJSON?) async -> InspectedObject.SendResult?
  let isAlive: () -> Bool

  init<Model: StateMachineObject>(_ model: Model, _ policy: PayloadPolicy) {
    send = { [weak model] event, json in
      guard let model else { return nil }
      let payload: (any Sendable)?
      do throws(PayloadDecodingFailure) {
        payload = try policy.payload(for: event, json)
      } catch {
        // A payload that does not decode into its event's registered type fires nothing.
        return InspectedObject.SendResult(outcome: "rejected", reason: error.description, state: await Self.state(of: model))
      }
      let outcome = await model.send(event, payload: payload, source: .inspector)
      return InspectedObject.SendResult(outcome, state: await Self.state(of: model))
    }
    isAlive = { [weak model] in model != nil }
  }

  /// The model's `state`, read on its actor when it has one.
  private static func state<Model: StateMachineObject>(of model: Model) async -> String {
    guard let actor = model._$stateMachineActor else { return model.state }
    let reader = StateReader { model.state }
    return await reader.read(on: actor)
  }
}

/// Reads an actor-isolated model's `state` on its actor.
///
/// `@unchecked Sendable`: `read(on:)` calls the closure on the model's own actor only.
private final class StateReader: @unchecked Sendable {
  let body: () -> String
  init(_ body: @escaping () -> String) { self.body = body }
  func read(on actor: isolated any Actor) -> String { body() }
}

extension InspectedObject.SendResult {
  /// The answer to a POST: `transition` when the state was written (even if a callback then
  /// threw, with the error as the reason), `queued`, or `rejected` with the reason.
  init(_ outcome: FireOutcome, state: String) {
    switch outcome {
    case .accepted: self.init(outcome: "transition", reason: nil, state: state)
    case .queued: self.init(outcome: "queued", reason: nil, state: state)
    case .rejected(let error): self.init(outcome: "rejected", reason: "\(error)", state: state)
    case .failed(let error, let happened):
      self.init(outcome: happened ? "transition" : "rejected", reason: "\(error)", state: state)
    }
  }
}
#endif
