import Foundation

/// A clock that moves only when told to: inject it into a definition
/// (``StateMachineBuilder/clock``) to test timeouts without sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// // sm.clock = clock
/// await clock.advance(by: .seconds(5))   // every timeout due by then has been delivered
/// ```
///
/// It is `Sendable` (`@unchecked`: its time, sleepers and armed timeouts are read and written
/// only under its lock).
public final class ManualClock: Clock, @unchecked Sendable {
  /// A point in manual time: the duration since the clock was created.
  public struct Instant: InstantProtocol {
    /// Time since the clock's start.
    public var offset: Duration

    /// The instant `offset` after the clock's start.
    public init(offset: Duration) { self.offset = offset }
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var cancelled: Set<UInt64> = []
  private var nextID: UInt64 = 0
  /// The state machine timeouts armed on this clock.
  private var timeouts = TimeoutQueue<Instant>()

  /// Creates a clock at offset zero.
  public init() {}

  /// The current manual time; it changes only through ``advance(by:)``.
  public var now: Instant { lock.locked { current } }

  /// Zero: manual time has no granularity.
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock (through ``sleep(until:tolerance:)``). A test
  /// reads it to know that work is parked before it advances the clock (a sleep that begins
  /// after an advance counts from the new time), and that cancelled work has let go (zero).
  public var sleeperCount: Int { lock.locked { sleepers.count } }

  /// The number of state machine timeouts armed on this clock.
  public var armedTimeoutCount: Int { lock.locked { timeouts.count } }

  /// Suspends until ``advance(by:)`` moves the clock to `deadline` or past it; returns at once if
  /// it is already there. Throws `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = lock.locked {
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = lock.locked {
          if cancelled.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= current { return .success(()) }
          sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let sleeper: Sleeper? = lock.locked {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
          cancelled.insert(id)
          return nil
        }
        return sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration` and returns once every state machine timeout that
  /// fell due has been delivered, in deadline order: the clock stands at each deadline while its
  /// timeouts are delivered, so a timeout armed by a delivered one counts from there. Tasks
  /// sleeping on the clock whose deadline passed are resumed.
  public func advance(by duration: Duration) async {
    let target = now.advanced(by: duration)
    while true {
      let due: [TimeoutQueue<Instant>.Fire] = lock.locked {
        guard let next = timeouts.earliestDeadline(), next <= target else { return [] }
        current = max(current, next)
        return timeouts.popDue(at: current)
      }
      guard !due.isEmpty else { break }
      wakeSleepers()
      for fire in due { await fire() }
    }
    lock.locked { current = max(current, target) }
    wakeSleepers()
  }

  private func wakeSleepers() {
    let due: [Sleeper] = lock.locked {
      let due = sleepers.filter { $0.deadline <= current }
      sleepers.removeAll { $0.deadline <= current }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}

extension ManualClock: TimeoutScheduler {
  func schedule(after timeout: Duration, _ fire: @escaping @Sendable () async -> Void) -> UInt64 {
    lock.locked { timeouts.insert(current.advanced(by: timeout), fire) }
  }

  func cancel(_ id: UInt64) {
    lock.locked { timeouts.remove(id) }
  }
}
