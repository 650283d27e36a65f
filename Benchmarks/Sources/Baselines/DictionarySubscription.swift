import Foundation

/// The Subscription machine as a string-keyed table: `transitions[event][from]` is the target
/// state. The naive dynamic implementation: two dictionary lookups with string hashing per event.
///
/// Opaque to the optimiser across the module boundary, like ``HandWrittenSubscription``.
public final class DictionarySubscription {
  /// event → from → to.
  private let transitions: [String: [String: String]] = [
    "activate": ["pendingActivation": "active"],
    "suspend": ["active": "suspended"],
    "unsuspend": ["suspended": "active"],
    "terminate": ["active": "terminated", "suspended": "terminated"],
  ]

  private var currentState = "pendingActivation"
  private var terminationDate: Date?
  private var billingWasStopped = false

  /// The current state.
  public var state: String { currentState }
  /// Set by the `before terminate` effect.
  public var terminatedAt: Date? { terminationDate }
  /// Set by the `after suspend` effect.
  public var billingStopped: Bool { billingWasStopped }

  /// Creates a subscription pending activation.
  public init() {}

  /// The effect that runs after every `suspend`.
  @inline(never)
  public func stopBilling() { billingWasStopped = true }

  /// Fires `event` by name; returns whether a transition happened.
  @inline(never)
  public func fire(_ event: String) -> Bool {
    guard let target = transitions[event]?[currentState] else { return false }
    if event == "terminate" { terminationDate = Date(timeIntervalSince1970: 123_123_123) }
    currentState = target
    if event == "suspend" { stopBilling() }
    return true
  }

  /// Whether firing `event` now would take a transition.
  @inline(never)
  public func can(_ event: String) -> Bool {
    transitions[event]?[currentState] != nil
  }
}
