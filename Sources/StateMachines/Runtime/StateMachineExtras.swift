import Foundation

/// Per-object resources that only some machines need: the run-to-completion queue, armed
/// timeouts, notification observers and transition streams. Allocated on first use, so a plain
/// object stores none of it; released with the object, which cancels its timeouts and removes its
/// observers.
///
/// The queue and ``epoch`` change under the object's lock (other threads queue events and check
/// epochs); the rest only on the thread that owns the machine's step.
///
/// `@unchecked Sendable`: that discipline keeps it safe. ``queue``, ``epoch`` and the fields
/// documented so change under the object's lock, the others only on the thread that owns the
/// machine's step (its busy mark); ``streams`` and ``invocations`` have locks of their own.
@usableFromInline
final class StateMachineExtras: @unchecked Sendable {
  /// Events fired while a step runs, processed before the machine goes idle.
  @usableFromInline var queue: [QueuedEvent] = []
  /// Bumped whenever the armed triggers are disarmed: a timeout or notification that was armed
  /// in an older epoch is stale and must not fire.
  var epoch: UInt64 = 0
  /// Armed timeouts and observers, with the state that armed them (-1 in a flat machine, which
  /// disarms all at once).
  var timeouts: [(scheduler: any TimeoutScheduler, id: UInt64, state: Int32)] = []
  var observations: [(center: NotificationCenter, token: any NSObjectProtocol, state: Int32)] = []
  let streams = TransitionStreams()
  /// The inspection streams (``StateMachineObject/inspectionRecords(bufferingPolicy:isolation:)``),
  /// made by the first; `nil` for an object nobody inspected. Set under the object's lock, never
  /// unset.
  @usableFromInline @exclusivity(unchecked) var inspection: InspectionStreams?
  /// What the inspected run going on has done so far; `nil` when none goes on (always, for an
  /// object nobody inspects). Set, read and cleared only by the thread that owns the run.
  @usableFromInline @exclusivity(unchecked) var capture: StepCapture?

  /// Whether a stream is listening (cheap to ask before building a `CompletedTransition`).
  @usableFromInline var hasStreams: Bool { !streams.isEmpty }
  /// Whether a stream was ever made: until then a step need not ask ``hasStreams``, which takes
  /// the streams' lock. Set under the object's lock.
  @usableFromInline @exclusivity(unchecked) var mayHaveStreams = false
  /// A statechart's configuration, history and join arrivals; `nil` for a flat machine and
  /// before a statechart starts. Changes under the object's lock (so the dynamic exclusivity
  /// check is redundant).
  @usableFromInline @exclusivity(unchecked) var chart: ChartConfiguration?
  /// Path subscriptions (`subscribeToEntry(at:)` and its kin); changed under the object's lock.
  @exclusivity(unchecked) var subscriptions: [StateSubscription] = [] {
    didSet { hasSubscriptions = !subscriptions.isEmpty }
  }
  /// Whether ``subscriptions`` has any, for inlinable code.
  @usableFromInline @exclusivity(unchecked) private(set) var hasSubscriptions = false
  var nextSubscription: UInt64 = 0
  /// Set while a store runs a step on this object (`storeStep`): what the step does is recorded
  /// and its `after` callbacks, observers and stream elements are held back until the store
  /// commits (P5). `nil` otherwise. Set and cleared by the thread that owns the step, under the
  /// object's lock; read on every step, so without the dynamic exclusivity check.
  @usableFromInline @exclusivity(unchecked) var storeRecorder: StoreStepRecorder?
  /// The store version of the row this object was loaded from (P4's compare-and-set); `nil` for
  /// an object no store loaded.
  var storeVersion: Int64?
  /// The store this object is bound to (a `StoreBinding<Model>`), set by the store's
  /// `insert`, `load` and fire results: the generated `async throws` event methods fire through
  /// it (Persistence P4). `nil` for an object no store bound. Set under the object's lock.
  var storeBinding: AnyObject?
  /// Invokes of states entered in the running macrostep, waiting for its end (Invoke I2).
  /// Changed by the thread that owns the step.
  var pendingInvocations: [PendingInvocation] = []
  /// The running invocations, made by the first start; read from any thread (its own lock).
  var invocations: InvocationRegistry?
  /// Whether invokes wait to start: they keep the queued flag set (see `StateMachineStorage`).
  @usableFromInline var hasPendingInvocations: Bool { !pendingInvocations.isEmpty }

  @usableFromInline init() {}

  deinit {
    disarm()
    streams.finish()
    inspection?.finish()
  }

  /// Cancels the timeouts, observers and invocations of the current state (Invoke I8, I9).
  func disarm() {
    for timeout in timeouts { timeout.scheduler.cancel(timeout.id) }
    timeouts.removeAll()
    for observation in observations { observation.center.removeObserver(observation.token) }
    observations.removeAll()
    pendingInvocations.removeAll()
    invocations?.cancel { _ in true }
  }

  /// Cancels the timeouts and removes the observers that the states in `states` armed (a
  /// statechart's exit set, S18).
  @usableFromInline
  func disarm(_ states: StateSet) {
    for timeout in timeouts where states.contains(timeout.state) { timeout.scheduler.cancel(timeout.id) }
    timeouts.removeAll { states.contains($0.state) }
    for observation in observations where states.contains(observation.state) {
      observation.center.removeObserver(observation.token)
    }
    observations.removeAll { states.contains($0.state) }
    pendingInvocations.removeAll { states.contains($0.armedIn.state) }
    invocations?.cancel { states.contains($0) }
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
  /// The payload the event was fired with, if any.
  public let payload: (any Sendable)?

  /// Creates a record of a transition.
  public init(from: String, event: String, to: String, payload: (any Sendable)? = nil) {
    self.from = from
    self.event = event
    self.to = to
    self.payload = payload
  }

  /// The payload as `T`, or `nil` if there is none or it has another type.
  public func payload<T>(as type: T.Type = T.self) -> T? { payload as? T }

  /// Compares the states and the event; payloads are not compared (they need not be `Equatable`).
  public static func == (lhs: CompletedTransition, rhs: CompletedTransition) -> Bool {
    lhs.from == rhs.from && lhs.event == rhs.event && lhs.to == rhs.to
  }

  public var description: String { "\(from) --\(event)--> \(to)" }
}

/// The continuations of an object's transition streams; thread-safe because a stream may be
/// cancelled from anywhere.
///
/// `@unchecked Sendable`: `continuations` and `nextID` are read and written only under `lock`.
final class TransitionStreams: @unchecked Sendable {
  private let lock = NSLock()
  private var continuations: [UInt64: AsyncStream<CompletedTransition>.Continuation] = [:]
  private var nextID: UInt64 = 0

  var isEmpty: Bool { lock.locked { continuations.isEmpty } }

  func makeStream(
    bufferingPolicy: AsyncStream<CompletedTransition>.Continuation.BufferingPolicy
  ) -> AsyncStream<CompletedTransition> {
    let (stream, continuation) = AsyncStream<CompletedTransition>.makeStream(bufferingPolicy: bufferingPolicy)
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
