import Foundation

/// Per-object resources that only some machines need: armed timers, notification observers and
/// transition streams. Allocated on first use, so a plain object stores none of it; released
/// with the object, which cancels its timers and removes its observers.
///
/// Accessed under the object's lock or on its actor, like the rest of ``StateMachineStorage``.
@usableFromInline
final class StateMachineExtras: @unchecked Sendable {
  /// Bumped whenever the armed triggers are disarmed: a timer or notification that was armed
  /// in an older epoch is stale and must not fire.
  var epoch: UInt64 = 0
  var timers: [Task<Void, Never>] = []
  var observations: [(center: NotificationCenter, token: any NSObjectProtocol)] = []
  let streams = TransitionStreams()

  init() {}

  deinit {
    disarm()
    streams.finish()
  }

  /// Cancels the timers and removes the observers armed for the current state.
  func disarm() {
    epoch &+= 1
    for timer in timers { timer.cancel() }
    timers.removeAll()
    for observation in observations { observation.center.removeObserver(observation.token) }
    observations.removeAll()
  }
}

/// One completed transition, as ``StateMachineObject/stateTransitions`` reports it.
public struct CompletedTransition: Sendable, Equatable, CustomStringConvertible {
  /// The state before the transition.
  public let from: String
  /// The event that caused it.
  public let event: String
  /// The state after it.
  public let to: String

  /// Creates a record of a transition.
  public init(from: String, event: String, to: String) {
    self.from = from
    self.event = event
    self.to = to
  }

  public var description: String { "\(from) --\(event)--> \(to)" }
}

/// The continuations of an object's transition streams; thread-safe because a stream may be
/// cancelled from anywhere.
final class TransitionStreams: @unchecked Sendable {
  private let lock = NSLock()
  private var continuations: [UInt64: AsyncStream<CompletedTransition>.Continuation] = [:]
  private var nextID: UInt64 = 0

  var isEmpty: Bool { lock.locked { continuations.isEmpty } }

  func makeStream() -> AsyncStream<CompletedTransition> {
    let (stream, continuation) = AsyncStream<CompletedTransition>.makeStream(bufferingPolicy: .unbounded)
    let id: UInt64 = lock.locked {
      nextID += 1
      continuations[nextID] = continuation
      return nextID
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      _ = self.lock.locked { self.continuations.removeValue(forKey: id) }
    }
    return stream
  }

  func yield(_ transition: CompletedTransition) {
    let targets = lock.locked { Array(continuations.values) }
    for continuation in targets { continuation.yield(transition) }
  }

  func finish() {
    let targets = lock.locked { Array(continuations.values) }
    for continuation in targets { continuation.finish() }
  }
}
