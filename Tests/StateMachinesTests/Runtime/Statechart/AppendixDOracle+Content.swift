import StateMachines

// Executable content in the oracle (Appendix D's executeContent): raise to the internal queue,
// send to the external queue (taken after the macrostep, within the run's step limit), delayed
// sends on a clock that moves only when they are delivered, cancel, and if on In().
//
// One rule is the runtime's, not Appendix D's: `In()` in exit and transition actions sees the
// configuration the microstep started from, and in entry actions the microstep's whole new
// configuration (Appendix D adds and removes states one at a time around their actions). A flat
// machine writes its state after the transition's action (Semantics step 6) alike.

extension AppendixDOracle {
  /// A delayed send waiting: the delay left, from the end of the last step.
  struct PendingSend: Hashable {
    let event: String
    let remaining: Duration
    let id: String?
  }

  /// Whether the runtime knows `event` (a transition names it): it refuses any other at once.
  func isKnown(_ event: String) -> Bool { chart.transitions.contains { $0.event == event } }

  func run(_ actions: [DeclaredAction]) {
    for action in actions {
      switch action {
      case .raise(let event):
        raise(event)
      case .send(let event, nil, _):
        if isKnown(event) { externalQueue.append(event) }
      case .send(let event, let delay?, let id):
        if isKnown(event) { pending.append(PendingSend(event: event, remaining: delay, id: id)) }
      case .cancel(let id):
        pending.removeAll { $0.id == id }
      case .choose(let branches, let otherwise):
        let seen = conditionConfiguration ?? configuration
        let chosen = branches.first { $0.condition.holds { seen.contains($0) } }
        run(chosen?.actions ?? otherwise)
      }
    }
  }

  /// After a run's macrostep: each event sent without a delay, a macrostep of its own, within
  /// the same run's step limit.
  func takeExternal(_ steps: inout Int) {
    while running, !externalQueue.isEmpty {
      if steps >= Self.maxSteps {
        dropQueue()
        return
      }
      steps += 1
      let event = externalQueue.removeFirst()
      let enabled = selectTransitions(event)
      if enabled.isEmpty { continue }
      microstep(enabled)
      finishMacrostep(&steps)
      startInvocations()
    }
    externalQueue.removeAll()
  }

  /// The clock moves on to the earliest delayed sends: each is delivered, in the order sent, as
  /// a run of its own. Returns the events and the delay, or `nil` if none waits.
  @discardableResult
  func deliverDue() -> (events: [String], delay: Duration)? {
    guard let delay = pending.map(\.remaining).min() else { return nil }
    let due = pending.filter { $0.remaining == delay }
    pending = pending.filter { $0.remaining != delay }.map {
      PendingSend(event: $0.event, remaining: $0.remaining - delay, id: $0.id)
    }
    // Each a run of its own, as an external event (the guards of these charts read no count).
    for due in due { send(due.event) }
    return (due.map(\.event), delay)
  }

  /// The active atomic states as paths, sorted (the explorer's configuration).
  var leafPaths: [String] {
    configuration.filter { isAtomic($0) }.map { chart.path($0) }.sorted()
  }
}
