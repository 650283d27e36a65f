import Foundation

/// The Subscription machine written by hand: an enum state and one `switch` per event.
///
/// The lower bound a generated machine is compared against. Its storage is private and its
/// members are `@inline(never)`, so that the compiler's default cross-module optimisation cannot
/// serialise their bodies and fold them into (or hoist them out of) the benchmark loops: every
/// call is a real call, as into a class of another module.
public final class HandWrittenSubscription {
  /// The states of the machine.
  public enum State: Sendable {
    case pendingActivation, active, suspended, terminated
  }

  private var currentState: State = .pendingActivation
  private var terminationDate: Date?
  private var billingWasStopped = false
  private var queries = 0

  /// The current state.
  public var state: State { currentState }
  /// Set by the `before terminate` effect.
  public var terminatedAt: Date? { terminationDate }
  /// Set by the `after suspend` effect.
  public var billingStopped: Bool { billingWasStopped }

  /// Creates a subscription pending activation.
  public init() {}

  /// The effect that runs after every `suspend`.
  @inline(never)
  public func stopBilling() { billingWasStopped = true }

  /// pendingActivation → active.
  @inline(never)
  public func activate() -> Bool {
    switch currentState {
    case .pendingActivation:
      currentState = .active
      return true
    case .active, .suspended, .terminated:
      return false
    }
  }

  /// active → suspended, then stops billing.
  @inline(never)
  public func suspend() -> Bool {
    switch currentState {
    case .active:
      currentState = .suspended
      stopBilling()
      return true
    case .pendingActivation, .suspended, .terminated:
      return false
    }
  }

  /// suspended → active.
  @inline(never)
  public func unsuspend() -> Bool {
    switch currentState {
    case .suspended:
      currentState = .active
      return true
    case .pendingActivation, .active, .terminated:
      return false
    }
  }

  /// active or suspended → terminated, recording when before the state changes.
  @inline(never)
  public func terminate() -> Bool {
    switch currentState {
    case .active, .suspended:
      terminationDate = Date(timeIntervalSince1970: 123_123_123)
      currentState = .terminated
      return true
    case .pendingActivation, .terminated:
      return false
    }
  }

  /// How often ``canSuspend`` was read.
  public var canSuspendQueries: Int { queries }

  /// Whether `suspend()` would take a transition now.
  ///
  /// Counts its calls: the compiler records (in the module) that a pure read has no side effect
  /// and would hoist it out of the benchmark loop, running it once instead of once per iteration.
  public var canSuspend: Bool {
    @inline(never) get {
      queries &+= 1
      switch currentState {
      case .active: return true
      case .pendingActivation, .suspended, .terminated: return false
      }
    }
  }
}
