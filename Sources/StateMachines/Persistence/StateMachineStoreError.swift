import Foundation

/// Why a store refused or failed an operation. Every case but ``commitOutcomeUnknown(requestID:underlying:)``
/// guarantees that nothing was written.
public enum StateMachineStoreError: Error, CustomStringConvertible {
  /// The machine refused the event (no transition, guards, terminated, unknown event): nothing
  /// was written (P3).
  case rejected(StateMachineError)
  /// No row has this id.
  case notFound(id: String)
  /// The object was stale: the row had moved on to `currentVersion` and `currentState` since it
  /// was loaded at `expectedVersion`. Nothing was written, the object is unchanged (P4).
  case conflict(id: String, expectedVersion: Int64, currentVersion: Int64, currentState: String)
  /// The row's state (or a history record) is not a state of the definition, typically after
  /// the definition changed: it is neither loaded nor fired until migrated (P12).
  case unknownStoredState(id: String, state: String)
  /// The row was locked by another writer and the fire asked not to wait (``FireOptions/LockMode/noWait``).
  case locked(id: String)
  /// A callback of the step threw (a guard, `before`, exit, action or entry): the whole step was
  /// rolled back, and its `after` callbacks never run (P5).
  case callbackFailed(event: String, underlying: any Error)
  /// The commit itself failed in a way that leaves its outcome unknown (a dropped connection).
  /// Fire again with the same `requestID` to learn what happened (P6).
  case commitOutcomeUnknown(requestID: UUID?, underlying: any Error)
  /// A request id that was recorded for another row or event (P6): nothing was written.
  case requestIDReused(requestID: UUID, id: String, event: String)
  /// The database failed.
  case database(any Error)
  /// A generated store method (`try await order.pay()`) or ``StoreManagedStateMachine/fireInStore(_:payload:options:)``
  /// was called on an object that no store bound: one that was neither passed to a store's
  /// `insert(_:)` nor returned by its `load(_:)` or a fire. Nothing was written.
  case notBound(type: String, event: String)

  public var description: String {
    switch self {
    case .rejected(let error): return "rejected: \(error)"
    case .notFound(let id): return "no row with id '\(id)'"
    case .conflict(let id, let expected, let current, let state):
      return "row '\(id)' is at version \(current) in '\(state)', the object was loaded at version \(expected)"
    case .unknownStoredState(let id, let state): return "row '\(id)' is in '\(state)', which is not a state of the definition"
    case .locked(let id): return "row '\(id)' is locked by another writer"
    case .callbackFailed(let event, let underlying): return "a callback of '\(event)' threw, rolled back: \(underlying)"
    case .commitOutcomeUnknown(let requestID, let underlying):
      return "the commit's outcome is unknown (request \(requestID.map(\.uuidString) ?? "none")): \(underlying)"
    case .requestIDReused(let requestID, let id, let event):
      return "request \(requestID.uuidString) was recorded for another row or event than '\(event)' on '\(id)'"
    case .database(let error): return "database error: \(error)"
    case .notBound(let type, let event):
      return "'\(event)' was called on a \(type) that no store bound: insert it into a store, or load it from one, first"
    }
  }
}
