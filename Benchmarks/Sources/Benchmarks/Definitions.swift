import StateMachines

// Building definitions: the time to build wide definitions, which used to be
// cubic in their size. Measured once each (they take milliseconds now), printed in ms.

/// `states` states, `events` events; event `i` leads from state `i % states` to the next one.
func buildGrid(states: Int, events: Int) -> StateMachineDefinition<DynamicStateMachine> {
  StateMachineDefinition<DynamicStateMachine> { sm in
    for index in 0..<states { sm.addState("s\(index)") }
    for index in 0..<events {
      sm.when("e\(index)", transitionFrom: "s\(index % states)", to: "s\((index + 1) % states)")
    }
  }
}

/// A chain of `count` states and `count - 1` events.
func buildChain(_ count: Int) -> StateMachineDefinition<DynamicStateMachine> {
  buildGrid(states: count, events: count - 1)
}

/// Milliseconds to run `body` once.
func milliseconds(_ body: () -> Void) -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  body()
  return nanoseconds(clock.now - start) / 1e6
}
