import Foundation

extension Notification.Name {
  /// Posted right before a state's entry actions run, when the definition sets
  /// ``StateMachineBuilder/postsStateNotifications``. The object is the model; `userInfo` holds
  /// `path` (the state's canonical path), `event` and, if any, `payload`.
  public static let stateMachineDidEnterState = Notification.Name("StateMachineDidEnterState")
  /// Posted right before a state's exit actions run (see ``stateMachineDidEnterState``).
  public static let stateMachineDidExitState = Notification.Name("StateMachineDidExitState")
  /// Posted when an internal transition is taken, before its action (see
  /// ``stateMachineDidEnterState``); `path` is the transition's source.
  public static let stateMachineDidPerformInternalTransition = Notification.Name(
    "StateMachineDidPerformInternalTransition")
}

/// A subscription to a state's entries, exits or internal transitions
/// (``StateMachineObject/subscribeToEntry(at:_:)``): it lasts until ``cancel()`` is called or the
/// token goes away.
///
/// It is `Sendable` (`@unchecked`: the cancellation is taken and cleared under a lock of the
/// token's, so it runs once, and it removes the subscription under the object's lock). An object
/// without a lock (actor-isolated, or not `Sendable`) has none to take: cancel its token, or let
/// it go, in the object's own context.
public final class StateMachineSubscription: @unchecked Sendable {
  private let lock = NSLock()
  private var onCancel: (() -> Void)?

  init(onCancel: @escaping () -> Void) {
    self.onCancel = onCancel
  }

  /// Ends the subscription; calling it again does nothing.
  public func cancel() {
    let action = lock.locked {
      defer { onCancel = nil }
      return onCancel
    }
    action?()
  }

  deinit { cancel() }
}

/// What a subscription or notification reports.
@usableFromInline
enum StateAnnouncement {
  case entry, exit, internalTransition
}

/// One subscription, kept in the object's extras.
struct StateSubscription {
  let id: UInt64
  let kind: StateAnnouncement
  let state: Int32
  /// For an internal transition: its event; -1 otherwise.
  let event: Int32
  let body: ((any Sendable)?) -> Void
}

@usableFromInline
enum StateAnnouncements<Model: StateMachineObject> {
  /// Subscribes `body` to `kind` of the state at `path` (a canonical path, or a bare name that
  /// is unique).
  static func subscribe(_ definition: StateMachineDefinition<Model>,
    _ kind: StateAnnouncement, at path: String, event: String?, on model: Model,
    _ body: @escaping ((any Sendable)?) -> Void
  ) throws(StateMachineError) -> StateMachineSubscription {
    let state = definition.compiled.stateTable.index(of: path) ?? definition.stateIndex(resolving: path)
    guard state >= 0 else { throw .unknownState(path) }
    var eventIndex: Int32 = -1
    if let event {
      guard let index = definition.eventIndex(event) else { throw .unknownEvent(event) }
      eventIndex = index
    }
    let extras = Triggers.extras(definition, of: model)
    let id: UInt64 = definition.locked(model) {
      extras.nextSubscription &+= 1
      extras.subscriptions.append(
        StateSubscription(id: extras.nextSubscription, kind: kind, state: state, event: eventIndex, body: body))
      return extras.nextSubscription
    }
    return StateMachineSubscription { [weak model] in
      guard let model else { return }
      definition.locked(model) { model._$stateMachineStorage.extras?.subscriptions.removeAll { $0.id == id } }
    }
  }

  /// Tells subscribers and, if the definition posts them, the notification center that `state`
  /// is entered, exited or takes an internal transition. Called right before the state's own
  /// actions.
  @usableFromInline
  static func announce(_ definition: StateMachineDefinition<Model>, _ kind: StateAnnouncement, _ state: Int32, event: Int32, payload: (any Sendable)?, _ model: Model) {
    if definition.compiled.postsStateNotifications {
      let name: Notification.Name =
        switch kind {
        case .entry: .stateMachineDidEnterState
        case .exit: .stateMachineDidExitState
        case .internalTransition: .stateMachineDidPerformInternalTransition
        }
      var userInfo: [String: Any] = ["path": definition.stateName(state), "event": event >= 0 ? definition.eventName(event) : ""]
      if let payload { userInfo["payload"] = payload }
      definition.compiled.notificationCenter.post(name: name, object: model, userInfo: userInfo)
    }
    let subscribers = definition.locked(model) {
      model._$stateMachineStorage.extras?.subscriptions.filter {
        $0.kind == kind && $0.state == state && (kind != .internalTransition || $0.event == event)
      }
    }
    for subscriber in subscribers ?? [] { subscriber.body(payload) }
  }

  /// Whether announcing is needed at all (a fast check for the flat step).
  @inlinable
  static func announces(_ definition: StateMachineDefinition<Model>, _ model: Model) -> Bool {
    definition.compiled.postsStateNotifications || (definition.locked(model) { model._$stateMachineStorage.extras } != nil && StateAnnouncements.hasSubscriptions(definition, model))
  }

  /// Whether `model` has path subscriptions.
  @usableFromInline
  static func hasSubscriptions(_ definition: StateMachineDefinition<Model>, _ model: Model) -> Bool {
    definition.locked(model) { !(model._$stateMachineStorage.extras?.subscriptions.isEmpty ?? true) }
  }
}

