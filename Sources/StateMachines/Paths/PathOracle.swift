// The explorer's side of a skeleton's guards and transitions: what each guard answers in one
// explored step, and which transitions the step took.

/// What the guards of a skeleton (``BuilderStore/skeleton(guards:junctionGuards:taken:)``)
/// answer, and what its transitions report, during one explored step.
///
/// A guard the explorer decides is *free*: it answers the step's planned answers in the order
/// the runtime asks, then `true`; the explorer runs the step again with `false` in each place
/// it answered `true` by default, so every outcome of every guard is seen once. A guard the
/// definition evaluates itself (an SCXML `In()` condition, a bound guard) is recorded, not
/// decided.
///
/// `@unchecked Sendable`: one explorer uses it, on one thread, while it builds its graph.
final class PathOracle: @unchecked Sendable {
  /// One guard the step asked, with its answer.
  struct Query {
    /// The transition (index in the skeleton's transitions) or junction path it guards.
    let guarded: GuardedTransition
    let holds: Bool
    /// Whether the explorer chose the answer (`false`: the definition evaluated it).
    let free: Bool
  }

  /// What a guard belongs to.
  enum GuardedTransition: Hashable, Sendable {
    case transition(Int)
    case junction(node: Int, path: Int)
  }

  private(set) var planned: [Bool] = []
  private(set) var queries: [Query] = []
  private(set) var freeCount = 0
  /// The transitions taken, in order: the index in the skeleton's transitions and the source.
  private(set) var taken: [(transition: Int, source: String)] = []

  /// A delayed send waiting on the clock (``DeclaredAction/send(_:delay:id:)``): the skeleton
  /// arms no clock, so the explorer keeps them as part of the configuration it reached and
  /// delivers them as a step of their own. The explorer's clock moves only in such steps, so
  /// `remaining` is the delay left from the end of the step that reached the node.
  struct PendingSend: Hashable, Sendable {
    let event: String
    let remaining: Duration
    let id: String?
  }

  /// The delayed sends waiting, in the order they were sent.
  var pending: [PendingSend] = []

  /// A delayed send was made.
  func sendLater(_ event: String, after delay: Duration, id: String?) {
    pending.append(PendingSend(event: event, remaining: delay, id: id))
  }

  /// A `cancel` ran: the sends under `id` go.
  func cancel(_ id: String) {
    pending.removeAll { $0.id == id }
  }

  /// The sends of `pending` due first (those with the least delay left, in the order sent), and
  /// the others with that delay gone by.
  static func due(_ pending: [PendingSend]) -> (delay: Duration, due: [PendingSend], rest: [PendingSend])? {
    guard let delay = pending.map(\.remaining).min() else { return nil }
    return (
      delay, pending.filter { $0.remaining == delay },
      pending.filter { $0.remaining != delay }.map { PendingSend(event: $0.event, remaining: $0.remaining - delay, id: $0.id) }
    )
  }

  /// Starts a step that answers `planned`, then `true`.
  func begin(_ planned: [Bool]) {
    self.planned = planned
    queries.removeAll(keepingCapacity: true)
    taken.removeAll(keepingCapacity: true)
    freeCount = 0
  }

  /// A free guard's answer.
  func answer(_ guarded: GuardedTransition) -> Bool {
    let holds = freeCount < planned.count ? planned[freeCount] : true
    freeCount += 1
    queries.append(Query(guarded: guarded, holds: holds, free: true))
    return holds
  }

  /// A guard the definition evaluated.
  func record(_ guarded: GuardedTransition, _ holds: Bool) {
    queries.append(Query(guarded: guarded, holds: holds, free: false))
  }

  /// A transition was taken.
  func took(_ transition: Int, from source: String) {
    taken.append((transition, source))
  }

  /// The free answers of the step just run, in order.
  var freeAnswers: [Bool] { queries.filter(\.free).map(\.holds) }
}
