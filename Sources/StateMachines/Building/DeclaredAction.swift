/// Executable content as data (SCXML's `<raise>`, `<send>`, `<cancel>` and `<if>`): an action
/// the definition can read, not only run. The runtime runs it as any other action; the path
/// explorer (``StateMachinePaths``) runs it too, so the events a step raises or sends are part of
/// that step there as they are at run time (Paths §What the explorer runs).
///
/// ```swift
/// sm.when("submit", transitionFrom: "editing", to: "checking").raise("validate")
/// sm.onEntry("waiting", perform: [.send("tick", delay: .seconds(5), id: "tick")])
/// sm.onExit("waiting", perform: [.cancel("tick")])
/// ```
public indirect enum DeclaredAction: Sendable, Hashable {
  /// Queues `event` on the internal queue: it is processed inside the same macrostep (S13).
  case raise(String)
  /// Queues `event` on the external queue (processed once the macrostep has ended); with a
  /// `delay`, fires it that long after on the definition's clock. A delayed send with an `id` can
  /// be cancelled by ``cancel(_:)``.
  case send(String, delay: Duration? = nil, id: String? = nil)
  /// Cancels every delayed send with this id that has not fired yet.
  case cancel(String)
  /// Runs the actions of the first branch whose condition holds, else `otherwise` (SCXML
  /// `<if>`, `<elseif>`, `<else>`).
  case choose([DeclaredBranch], otherwise: [DeclaredAction] = [])
}

/// One branch of ``DeclaredAction/choose(_:otherwise:)``: actions run when a condition holds.
public struct DeclaredBranch: Sendable, Hashable {
  public let condition: StateCondition
  public let actions: [DeclaredAction]

  public init(_ condition: StateCondition, _ actions: [DeclaredAction]) {
    self.condition = condition
    self.actions = actions
  }
}

/// A condition on the machine's configuration alone (SCXML's `In()` under the null data model),
/// so that the path explorer can evaluate it as the runtime does.
public indirect enum StateCondition: Sendable, Hashable {
  case constant(Bool)
  /// Whether the state at this path (or unique name, N5) is active.
  case inState(String)
  case not(StateCondition)
  case and(StateCondition, StateCondition)
  case or(StateCondition, StateCondition)

  /// Evaluates it, `isActive` answering ``inState(_:)``.
  public func holds(_ isActive: (String) -> Bool) -> Bool {
    switch self {
    case .constant(let value): return value
    case .inState(let state): return isActive(state)
    case .not(let inner): return !inner.holds(isActive)
    case .and(let a, let b): return a.holds(isActive) && b.holds(isActive)
    case .or(let a, let b): return a.holds(isActive) || b.holds(isActive)
    }
  }
}

/// Where declared actions take effect: the runtime's object, or the path explorer's record of
/// delayed sends (a skeleton arms no clock).
struct DeclaredActionTarget<Model> {
  let raise: (Model, String) -> Void
  let send: (Model, String) -> Void
  let sendLater: (Model, String, Duration, String?) -> Void
  let cancel: (Model, String) -> Void
  let isActive: (Model, String) -> Bool
}

extension DeclaredActionTarget where Model: StateMachineObject {
  /// The runtime: raise fires inside the step (the internal queue), send posts (the external
  /// queue), a delayed send goes on the definition's clock.
  static var runtime: Self {
    Self(
      raise: { model, event in model.fire(event) },
      send: { model, event in model.post(event) },
      sendLater: { model, event, delay, id in model.post(event, after: delay, id: id) },
      cancel: { model, id in model.cancelPost(id: id) },
      isActive: { model, state in model.isInState(state) })
  }
}

extension StateMachineObject {
  /// Runs `actions` on this object, in order, as a definition's declared actions run: in a
  /// callback, a raise is processed inside the running step.
  public func perform(_ actions: [DeclaredAction]) {
    actions.run(on: self, .runtime)
  }
}

extension Array where Element == DeclaredAction {
  /// Runs the actions in order on `model`.
  func run<Model>(on model: Model, _ target: DeclaredActionTarget<Model>) {
    for action in self {
      switch action {
      case .raise(let event):
        target.raise(model, event)
      case .send(let event, let delay, let id):
        if let delay { target.sendLater(model, event, delay, id) } else { target.send(model, event) }
      case .cancel(let id):
        target.cancel(model, id)
      case .choose(let branches, let otherwise):
        let chosen = branches.first { $0.condition.holds { target.isActive(model, $0) } }
        (chosen?.actions ?? otherwise).run(on: model, target)
      }
    }
  }
}
