#if Inspector
/// An attached object with its type erased: what the server needs of it, as data and closures.
/// The closures hold the object weakly (made by `Inspector.attach`), so that inspecting an
/// object never keeps it alive.
struct InspectedObject: Sendable {
  /// How a sent event ended, as `POST /api/objects/{id}/events` answers it.
  struct SendResult: Sendable, Equatable {
    /// `transition`, `queued` or `rejected`.
    let outcome: String
    /// Why nothing happened, or the error a callback threw.
    let reason: String?
    /// The object's `state` afterwards.
    let state: String
  }

  /// The definition's inspection document as JSON (`GET /api/objects/{id}/definition`).
  let definitionJSON: String
  /// The definition as DOT with `s<i>`/`t<i>` ids, for `GET /api/objects/{id}/diagram.svg`.
  let dot: String
  /// Fires an event with source `inspector`; `nil` once the object is gone.
  let send: @Sendable (_ event: String, _ payload: InspectorJSON?) async -> SendResult?
  /// Whether the object still exists.
  let isAlive: @Sendable () -> Bool
  /// The rows of a store, when the object stands for them rather than for one live object.
  var store: InspectorStore? = nil
}
#endif
