// Where an event came from, as the inspector's records say it (Inspecting B.3).

/// Where an event came from: code calling the object, the run-to-completion queue, a posted
/// event, a trigger, an invocation, or the inspector itself.
public enum InspectionSource: Sendable, Hashable, CustomStringConvertible {
  /// `fire`, `send` or a generated event method, called by code.
  case api
  /// Fired while a step ran, and processed later from the run-to-completion queue.
  case queue
  /// Posted (`post`) or raised as an internal event.
  case post
  /// A timeout trigger.
  case timeout
  /// A notification trigger.
  case notification
  /// An invocation's `done.invoke.<id>` / `error.invoke.<id>` result, or an event it sent
  /// through its context; `generation` tells apart the runs of one invoke.
  case invoke(id: String, generation: UInt64)
  /// Sent by the inspector (`send(_:payload:source:)` with `.inspector`).
  case inspector

  /// `api`, `queue`, `post`, `timeout`, `notification`, `invoke <id>#<generation>` or `inspector`.
  public var description: String {
    switch self {
    case .api: "api"
    case .queue: "queue"
    case .post: "post"
    case .timeout: "timeout"
    case .notification: "notification"
    case .invoke(let id, let generation): "invoke \(id)#\(generation)"
    case .inspector: "inspector"
    }
  }
}
