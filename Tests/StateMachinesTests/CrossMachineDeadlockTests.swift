import Dispatch
import StateMachines
import Testing

// Issue 7, defect 1 (SEMANTICS "No pattern of callbacks across machines deadlocks"): callbacks of
// one `Sendable` machine fire events of another that is busy on another thread. Before, callbacks
// ran under the machine's lock, so two threads each inside one machine and firing the other
// waited on each other forever. Now a thread that runs a step queues an event for a busy machine
// instead of waiting, and the busy machine runs it before it goes idle.
// Run with `swift test --sanitize=thread` too.

/// `hit` and `relay` toggle between `a` and `b`, so both are always accepted. `hit`'s callback
/// fires `relay` on the next machine; `relay` only counts. Counts are written by callbacks, which
/// the machine's busy mark serialises.
@StateMachine
final class RelayMachine: @unchecked Sendable {
  var next: RelayMachine?
  private(set) var hits = 0
  private(set) var relays = 0

  static let stateMachine = StateMachineDefinition<RelayMachine> { sm in
    sm.addState("a")
    sm.addState("b")
    sm.when("hit", transitionFrom: "a", to: "b")
    sm.when("hit", transitionFrom: "b", to: "a")
    sm.when("relay", transitionFrom: "a", to: "b")
    sm.when("relay", transitionFrom: "b", to: "a")
    sm.after("hit") { machine in
      machine.hits += 1
      machine.next?.relay()
    }
    sm.after("relay") { $0.relays += 1 }
  }
}

/// `count` machines in a ring: each one's `hit` relays to the next.
private func relayRing(_ count: Int) -> [RelayMachine] {
  let machines = (0..<count).map { _ in RelayMachine() }
  for index in machines.indices { machines[index].next = machines[(index + 1) % count] }
  return machines
}

@Suite("Cross-machine callbacks (no deadlock)")
struct CrossMachineDeadlockTests {
  @Test("2 machines x 2 threads ping-pong 200k events: each processed exactly once")
  func pingPong() {
    let machines = relayRing(2)
    let hitsPerThread = 100_000
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      for _ in 0..<hitsPerThread { machines[thread].hit() }
    }
    for machine in machines {
      #expect(machine.hits == hitsPerThread)
      #expect(machine.relays == hitsPerThread)
      // An even number of toggles: back in `a`.
      #expect(machine.state == "a")
    }
    for machine in machines { machine.next = nil }
  }

  @Test("8 machines in a ring driven from 8 threads: exact counts")
  func ringOfEight() {
    let machines = relayRing(8)
    let hitsPerThread = 20_000
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for _ in 0..<hitsPerThread { machines[thread].hit() }
    }
    for machine in machines {
      #expect(machine.hits == hitsPerThread)
      #expect(machine.relays == hitsPerThread)
      #expect(machine.state == "a")
    }
    for machine in machines { machine.next = nil }
  }

  @Test("an event fired into a machine that another thread is running returns true (queued) and runs once")
  func queuedReturnValue() {
    let machines = relayRing(2)
    // A single thread: `hit` on 0 relays into 1 while 1 is idle, so it runs at once, nested.
    #expect(machines[0].hit())
    #expect(machines[1].relays == 1)
    #expect(machines[1].state == "b")
    for machine in machines { machine.next = nil }
  }
}
