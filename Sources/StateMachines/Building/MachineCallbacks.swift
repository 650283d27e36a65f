/// A callback, action or observer as registered: with or without the ``Transition``. Building a
/// `Transition` copies names and the payload, so the runtime builds one only for the callbacks
/// that take it.
@usableFromInline
enum MachineCallback<Model> {
  case plain((Model) throws -> Void)
  case withTransition((Model, Transition) throws -> Void)

  @inlinable
  func callAsFunction(_ model: Model, _ transition: () -> Transition) throws {
    switch self {
    case .plain(let body): try body(model)
    case .withTransition(let body): try body(model, transition())
    }
  }

  /// Calls the callback with a transition built already (passed on without a copy).
  @inlinable
  func callAsFunction(_ model: Model, _ transition: Transition) throws {
    switch self {
    case .plain(let body): try body(model)
    case .withTransition(let body): try body(model, transition)
    }
  }
}

/// A guard as registered: with or without the ``Transition``.
@usableFromInline
enum MachineGuard<Model> {
  case plain((Model) throws -> Bool)
  case withTransition((Model, Transition) throws -> Bool)

  @inlinable
  func callAsFunction(_ model: Model, _ transition: () -> Transition) throws -> Bool {
    switch self {
    case .plain(let body): return try body(model)
    case .withTransition(let body): return try body(model, transition())
    }
  }

  /// Calls the guard with a transition built already (passed on without a copy).
  @inlinable
  func callAsFunction(_ model: Model, _ transition: Transition) throws -> Bool {
    switch self {
    case .plain(let body): return try body(model)
    case .withTransition(let body): return try body(model, transition)
    }
  }
}

/// An entry action as registered: a callback, or one that may ask for a ``NextStep``.
@usableFromInline
enum MachineEntryAction<Model> {
  case callback(MachineCallback<Model>)
  case then((Model, Transition) throws -> NextStep?)
}

/// A plain callback in a box, so the light tier can call it through an unowned, guaranteed
/// reference: calling a closure loaded from an array retains and releases its context, two atomic
/// operations that cost more than the rest of the transition.
@usableFromInline
final class PlainCallbackBox<Model> {
  @usableFromInline let body: (Model) throws -> Void

  init(_ body: @escaping (Model) throws -> Void) {
    self.body = body
  }
}

/// A plain guard in a box, for the light tier (see ``PlainCallbackBox``).
@usableFromInline
final class PlainGuardBox<Model> {
  @usableFromInline let body: (Model) throws -> Bool

  init(_ body: @escaping (Model) throws -> Bool) {
    self.body = body
  }
}
