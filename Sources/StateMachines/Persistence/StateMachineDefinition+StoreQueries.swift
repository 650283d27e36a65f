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
