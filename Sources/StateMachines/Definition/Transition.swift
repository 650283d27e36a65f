/// What a callback, guard or action learns about the transition it runs in.
///
/// Cheap to pass around: a reference to the names and three indices, not three strings. A step
/// builds one per event and hands every callback the same value; a name is looked up only when a
/// callback reads it.
public struct Transition {
  /// Where the names are: the definition's tables, or those of a transition built from strings.
  @usableFromInline let names: TransitionNames
  /// Indexes into ``TransitionNames/events`` and ``TransitionNames/states``; -1 for the
  /// explicit name of ``names``.
  @usableFromInline let eventIndex: Int32
  @usableFromInline let fromIndex: Int32
  @usableFromInline let toIndex: Int32
  /// The payload, or a ``NoPayload`` for none: a step destroys one `Transition` per event, and
  /// Swift destroys an optional existential through generic value witnesses, a plain one through
  /// its type's (Benchmarks/README.md, "Optional existentials not made per call").
  @usableFromInline let storedPayload: any Sendable

  /// The value fired with the event (`fire("x", payload:)` or a generated `x(with:)`), if any.
  public var payload: (any Sendable)? {
    type(of: storedPayload) == NoPayload.self ? nil : storedPayload
  }

  /// The event that was fired.
  public var event: String { eventIndex < 0 ? names.event : names.events[Int(eventIndex)] }
  /// The state the machine was in when the event was fired.
  public var from: String { fromIndex < 0 ? names.from : names.states[Int(fromIndex)] }
  /// The state the transition leads to.
  public var to: String { toIndex < 0 ? names.to : names.states[Int(toIndex)] }
  /// The path of the state that declares the transition (Hierarchy §3); in a flat machine,
  /// the state the machine was in. `(root)` for a wildcard or the machine's start.
  public var source: String { names.source ?? from }
  /// The paths of the transition's targets; empty for a targetless (internal) transition. A
  /// guard sees them before a junction chose its path.
  public var targets: [String] { names.targets ?? [to] }
  /// How the transition treats its source (S10).
  public var kind: TransitionKind { names.kind }

  /// Creates a transition description. `source` defaults to `from`, `targets` to `[to]`.
  public init(
    event: String, from: String, to: String, payload: (any Sendable)? = nil, source: String? = nil,
    targets: [String]? = nil, kind: TransitionKind = .external
  ) {
    names = TransitionNames(event: event, from: from, to: to, source: source, targets: targets, kind: kind)
    eventIndex = -1
    fromIndex = -1
    toIndex = -1
    storedPayload = payload ?? NoPayload()
  }

  /// A transition of a flat step: names of the definition's tables, by index (nothing copied).
  @inlinable
  init(_ names: TransitionNames, event: Int32, from: Int32, to: Int32, payload: (any Sendable)?) {
    self.names = names
    eventIndex = event
    fromIndex = from
    toIndex = to
    storedPayload = payload ?? NoPayload()
  }

  /// A transition of a flat step fired without a payload.
  @inlinable
  init(_ names: TransitionNames, event: Int32, from: Int32, to: Int32) {
    self.names = names
    eventIndex = event
    fromIndex = from
    toIndex = to
    storedPayload = NoPayload()
  }

  /// The payload as `T`, or `nil` if there is none or it has another type.
  public func payload<T>(as type: T.Type = T.self) -> T? {
    payload as? T
  }
}

/// What a ``Transition`` stores for "no payload" (its ``Transition/payload`` is then `nil`).
@usableFromInline
struct NoPayload: Sendable {
  @inlinable init() {}
}

/// The names a ``Transition`` reads: a definition's state and event tables, shared by all its
/// steps, or the explicit names of one transition.
///
/// `@unchecked Sendable`: immutable, every property a `let` of a `Sendable` value.
@usableFromInline
final class TransitionNames: @unchecked Sendable {
  /// The definition's states and events (empty for explicit names).
  let states: [String]
  let events: [String]
  /// The explicit names (empty for a definition's tables).
  let event: String
  let from: String
  let to: String
  /// The source and targets when they are not `from` and `[to]`.
  let source: String?
  let targets: [String]?
  let kind: TransitionKind

  /// The names of a definition.
  init(states: [String], events: [String]) {
    self.states = states
    self.events = events
    event = ""
    from = ""
    to = ""
    source = nil
    targets = nil
    kind = .external
  }

  /// The explicit names of one transition.
  @usableFromInline
  init(event: String, from: String, to: String, source: String?, targets: [String]?, kind: TransitionKind) {
    states = []
    events = []
    self.event = event
    self.from = from
    self.to = to
    self.source = source
    self.targets = targets
    self.kind = kind
  }
}

/// What an entry action may ask for once its state is entered (as Stately's `StateChange`):
/// processed as the next run-to-completion step.
public enum NextStep {
  /// Fire this event next, with an optional payload.
  case fire(String, payload: (any Sendable)? = nil)
}
