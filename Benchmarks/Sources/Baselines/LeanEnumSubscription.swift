/// The leanest hand-written machine for the Subscription cycle: an enum, a `switch` per event, and
/// the `after suspend` callback called as a closure, like the one a definition stores. In its own
/// module, its members `@inline(never)`: every event is a real cross-module call.
public final class LeanEnumSubscription {
  /// The states of the machine.
  public enum State: Sendable {
    case active, suspended
  }

  private var current: State = .active
  private let afterSuspend: () -> Void

  /// An active subscription that calls `afterSuspend` after every `suspend`.
  public init(afterSuspend: @escaping () -> Void) {
    self.afterSuspend = afterSuspend
  }

  /// active → suspended, then the callback.
  @inline(never)
  public func suspend() -> Bool {
    switch current {
    case .active:
      current = .suspended
      afterSuspend()
      return true
    case .suspended:
      return false
    }
  }

  /// suspended → active.
  @inline(never)
  public func unsuspend() -> Bool {
    switch current {
    case .suspended:
      current = .active
      return true
    case .active:
      return false
    }
  }
}
