import Dispatch
import Foundation
import StateMachines
import Testing

// Cross-machine deadlocks (Semantics "No pattern of callbacks across machines deadlocks"):
// callbacks of one `Sendable` machine fire events of another that is busy on another thread.
// Before, callbacks ran under the machine's lock, so two threads each inside one machine and firing
// the other waited on each other forever. Now a thread that runs a step queues an event for a busy
// machine instead of waiting, and the busy machine runs it before it goes idle.
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

/// `park` (idle → parked) holds its thread in the after callback until the test releases it, so
/// the machine stays busy on that thread; `relay` (parked → relayed) only counts.
@StateMachine
final class ParkingMachine: @unchecked Sendable {
  let parked = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)
  /// Written by the relay callback, which the machine's busy mark serialises.
  private(set) var relays = 0

  static let stateMachine = StateMachineDefinition<ParkingMachine> { sm in
    sm.addState("idle")
    sm.addState("parked")
    sm.addState("relayed")
    sm.when("park", transitionFrom: "idle", to: "parked")
    sm.when("relay", transitionFrom: "parked", to: "relayed")
    sm.after("park") { machine in
      machine.parked.signal()
      _ = machine.release.wait(timeout: .now() + .seconds(30))
    }
    sm.after("relay") { $0.relays += 1 }
  }
}

/// `send` (idle → sent) fires `relay` into ``target`` from its after callback, and records what
/// that call returned and how many relays the target had run by then.
@StateMachine
final class SendingMachine: @unchecked Sendable {
  let target: ParkingMachine
  private(set) var relayResult: Bool?
  private(set) var relaysWhenReturned: Int?

  init(target: ParkingMachine) {
    self.target = target
  }

  static let stateMachine = StateMachineDefinition<SendingMachine> { sm in
    sm.addState("idle")
    sm.addState("sent")
    sm.when("send", transitionFrom: "idle", to: "sent")
    sm.after("send") { machine in
      machine.relayResult = machine.target.relay()
      machine.relaysWhenReturned = machine.target.relays
    }
  }
}

/// `count` machines in a ring: each one's `hit` relays to the next.
private func relayRing(_ count: Int) -> [RelayMachine] {
  let machines = (0..<count).map { _ in RelayMachine() }
  for index in machines.indices { machines[index].next = machines[(index + 1) % count] }
  return machines
}

@Suite("Cross-machine callbacks (no deadlock)", .timeLimit(.minutes(1)))
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
    let target = ParkingMachine()
    let sender = SendingMachine(target: target)
    let parkDone = DispatchSemaphore(value: 0)
    // Thread A runs `park` and stays inside its step, so the target is busy on A.
    let parkResult = TestRecorder()
    Thread.detachNewThread {
      if target.park() { parkResult.increment("accepted") }
      parkDone.signal()
    }
    #expect(target.parked.wait(timeout: .now() + .seconds(30)) == .success)
    // This thread runs a step of `sender`, whose callback fires `relay` into the busy target:
    // queued, not run here, not waited for.
    #expect(sender.send())
    #expect(sender.relayResult == true)
    #expect(sender.relaysWhenReturned == 0)
    // Thread A finishes its step, then runs the queued relay before the target goes idle.
    target.release.signal()
    #expect(parkDone.wait(timeout: .now() + .seconds(30)) == .success)
    #expect(parkResult["accepted"] == 1)
    #expect(target.relays == 1)
    #expect(target.state == "relayed")
    #expect(sender.state == "sent")
  }

  @Test("an event fired into an idle machine from another machine's callback runs at once, nested")
  func relayIntoAnIdleMachine() {
    let machines = relayRing(2)
    // A single thread: `hit` on 0 relays into 1 while 1 is idle, so it runs at once, nested.
    #expect(machines[0].hit())
    #expect(machines[1].relays == 1)
    #expect(machines[1].state == "b")
    for machine in machines { machine.next = nil }
  }
}
