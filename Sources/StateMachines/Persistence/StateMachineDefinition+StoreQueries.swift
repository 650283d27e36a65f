// Reads a store needs of the definition, on stored `state` strings rather than objects: scopes
// (P14) and `verify()` (P12).

extension StateMachineDefinition {
  /// Whether a row whose stored state is `stored` is in `state`: the state itself, or, for a
  /// compound or parallel state, any of its descendants (P14). `state` is a name or a path, as
  /// for ``isInState(_:on:)-(String,_)``; `false` when either is not in the definition.
  public func isStored(_ stored: String, in state: String) -> Bool {
    guard case .statechart(let chart) = compiled.engine else {
      return stored == state && compiled.stateTable.index(of: state) != nil
    }
    let index = compiled.stateTable.index(of: state) ?? stateIndex(resolving: state)
    guard index >= 0, let active = try? configuration(parsing: stored, chart) else { return false }
    return active.contains(index)
  }

  /// The events of the timeouts that entering `state` (a name or a path) arms.
  public func timeoutEvents(of state: String) -> [String] {
    let index = compiled.stateTable.index(of: state) ?? stateIndex(resolving: state)
    guard index >= 0, Int(index) < compiled.triggers.count else { return [] }
    return compiled.triggers[Int(index)].filter { $0.timeout != nil }.map { eventName($0.event) }
  }
}

extension StateMachineDefinition {
  /// How rows spell `state` (a name or a path, compared by canonical equivalence): its declared
  /// name in a flat machine, its path in a statechart; `nil` when it is not a state of the
  /// definition. SQL stores match stored strings against it (P14).
  public func storedName(of state: String) -> String? {
    let index = compiled.stateTable.index(of: state) ?? stateIndex(resolving: state)
    guard index >= 0 else { return nil }
    switch compiled.engine {
    case .flat: return compiled.states[Int(index)]
    case .statechart(let chart): return chart.tree.paths[Int(index)]
    }
  }

  /// Whether the definition has an event named `event` (canonical equivalence): a deadline
  /// naming an event it no longer has is parked, never fired (P12).
  public func hasEvent(_ event: String) -> Bool {
    eventIndex(event) != nil
  }
}

extension StateMachineDefinition {
  /// Whether rows store one state name (a flat machine) rather than a configuration of paths.
  package var storesOneName: Bool {
    if case .flat = compiled.engine { return true }
    return false
  }
}

extension StateMachineDefinition {
  /// What `verify()` reports (P12) about a store's rows (id, stored state, terminated), deadlines
  /// and parked messages: every store reads them its own way and judges them here.
  package func report(
    rows: [(key: String, state: String, isTerminated: Bool)], deadlines: [StoredDeadline],
    parkedMessages: [OutboxMessage]
  ) -> StoreReport {
    var report = StoreReport()
    var active: [String: [String]] = [:]
    for row in rows {
      let states = activeStates(inStored: row.state)
      if states.isEmpty {
        report.unknownStates[row.key] = row.state
      } else if !row.isTerminated {
        active[row.key] = states
      }
    }
    for deadline in deadlines.sorted(by: { $0.id < $1.id }) {
      if deadline.isParked { report.parkedDeadlines.append(deadline) }
      guard let state = deadline.state else { continue }
      if !(active[deadline.entityID] ?? []).contains(state) || !timeoutEvents(of: state).contains(deadline.event) {
        report.staleDeadlines.append(deadline)
      }
    }
    for (key, states) in active {
      let missing = states.filter { state in
        timeoutEvents(of: state).contains { event in
          !deadlines.contains { $0.entityID == key && $0.state == state && $0.event == event }
        }
      }
      if !missing.isEmpty { report.missingDeadlines[key] = missing }
    }
    report.parkedMessages = parkedMessages.sorted { $0.id < $1.id }
    return report
  }
}
