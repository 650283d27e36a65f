// Persisted models need not be `Sendable` (a class with `var` properties cannot be checked so), so
// a store that runs a step on a database's own thread hands the object it made or copied for that
// step over in this box.

/// An object a store hands to the closure that runs one step on a database's thread, or back from
/// it: for the store adapters of this package, not for applications.
///
/// `@unchecked Sendable` is sound because of how the stores use it: the object is one the store
/// made (a fresh load) or copied (the caller's object, P4) for this one step; the caller's task
/// awaits the closure that uses it, and nothing else holds a reference until the closure has
/// returned it. The caller's own object is never put in one.
public struct _StoreHandOff<Value>: @unchecked Sendable {
  /// The object handed over.
  public let value: Value

  /// Hands `value` over.
  public init(_ value: Value) { self.value = value }
}
