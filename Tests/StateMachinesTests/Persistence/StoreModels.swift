// The persisted classes of the store tests (Persistence §9): one per shape the conformance
// suite checks. Each row gets an id of its own (`StoreTestIDs.next()`), and callbacks write into
// `StoreMarks` under that id, so tests running in parallel never see each other's marks.

import Foundation
import StateMachines

/// Ids unique across the test process.
enum StoreTestIDs {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var last = 0

  static func next() -> Int {
    lock.withLock {
      last += 1
      return last
    }
  }
}

/// Marks written by callbacks, by row id: what ran, in order.
final class StoreMarks: @unchecked Sendable {
  static let shared = StoreMarks()
  private let lock = NSLock()
  private var marks: [Int: [String]] = [:]

  func append(_ id: Int, _ mark: String) { lock.withLock { marks[id, default: []].append(mark) } }
  func of(_ id: Int) -> [String] { lock.withLock { marks[id] ?? [] } }
}

/// A flat order: pay, ship (guarded by a column), cancel, payment expiring after an hour,
/// `die` on `crash`, an `after` callback and an observer, an entry action that changes a column,
/// one that throws when told to, and a self-transition and an internal one for deadlines (P8).
@StateMachine
final class StoreOrder: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var shippable = true
  var payments = 0
  var failOnEntry = false
  var storeID: Int { id }

  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<StoreOrder> { sm in
    sm.addState("awaitingPayment")
    sm.addState("paid")
    sm.addState("shipped")
    sm.addState("cancelled")
    sm.addState("broken")
    sm.when("pay", transitionFrom: "awaitingPayment", to: "paid")
    sm.when("ship", transitionFrom: "paid", to: "shipped").guarded { $0.shippable }
    sm.when("cancel", transitionFrom: ["awaitingPayment", "paid"], to: "cancelled")
    sm.when("expire", transitionFrom: "awaitingPayment", to: "cancelled", after: .seconds(3600))
    sm.when("remind", transitionFrom: "awaitingPayment", to: "awaitingPayment")
    sm.when("note", transitionFrom: "awaitingPayment", to: "awaitingPayment", internal: true)
    sm.when("smash", transitionFrom: "paid", to: "broken")
    sm.die(on: "crash", from: ["awaitingPayment", "paid"])
    sm.onEntry("paid") { order in order.payments += 1 }
    sm.onEntry("cancelled") { order in
      if order.failOnEntry { throw StoreTestFailure.entry }
    }
    sm.onEntry("broken") { order in
      StoreMarks.shared.append(order.id, "entry broken")
      throw StoreTestFailure.entry
    }
    for event in ["pay", "ship", "cancel", "expire", "smash"] {
      sm.after(event) { order in StoreMarks.shared.append(order.id, "after \(event)") }
    }
    sm.didTransition { order, transition in
      StoreMarks.shared.append(order.id, "observed \(transition.from)->\(transition.to)")
    }
  }
}

enum StoreTestFailure: Error {
  case entry
}

/// A statechart (the Hierarchy article): nested states with shallow history, a parallel state with
/// two regions, an eventless transition, an entry action that queues an event, and a final state.
@StateMachine
final class StorePlayer: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var storeID: Int { id }

  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<StorePlayer> { sm in
    buildPlayer(sm)
  }
}

/// The same chart on a class no store manages: the oracle of the round trips (its events run
/// directly).
@StateMachine
final class PlainPlayer {
  static let stateMachine = StateMachineDefinition<PlainPlayer> { sm in
    buildPlayer(sm)
  }
}

/// The player's chart, for ``StorePlayer`` and ``PlainPlayer``.
func buildPlayer<Model>(_ sm: StateMachineBuilder<Model>) {
  sm.addState("off")
  sm.addState("on") { on in
    on.addState("stopped")
    on.addState("playing")
    on.addState("seeking")
    on.addHistory("resume", .shallow)
  }
  sm.addParallelState("deck") { deck in
    deck.addState("audio") { $0.addState("loud"); $0.addState("muted") }
    deck.addState("video") { $0.addState("sd"); $0.addState("hd") }
  }
  sm.addState("booting")
  sm.addState("ready")
  sm.addState("loading")
  sm.addState("loaded")
  sm.addFinalState("ejected")
  sm.when("power", transitionFrom: "off", to: "on/resume")
  sm.when("power", transitionFrom: "on", to: "off")
  sm.when("play", transitionFrom: "stopped", to: "playing")
  sm.when("seek", transitionFrom: "playing", to: "seeking")
  sm.when("deck", transitionFrom: "off", to: "deck")
  sm.when("mute", transitionFrom: "loud", to: "muted")
  sm.when("hd", transitionFrom: "sd", to: "hd")
  sm.when("leave", transitionFrom: "deck", to: "off")
  // Eventless: booting is left as soon as it is entered.
  sm.when("boot", transitionFrom: "off", to: "booting")
  sm.always(transitionFrom: "booting", to: "ready")
  sm.when("halt", transitionFrom: "ready", to: "off")
  // Queued: entering loading fires `finish`, which runs as a step of the same fire.
  sm.when("load", transitionFrom: "off", to: "loading")
  sm.when("finish", transitionFrom: "loading", to: "loaded")
  sm.onEntry("loading", then: { _, _ in .fire("finish") })
  sm.when("eject", transitionFrom: ["off", "loaded"], to: "ejected")
  // A timeout inside a compound state: seeking gives up after a minute.
  sm.when("giveUp", transitionFrom: "seeking", to: "stopped", after: .seconds(60))
}

/// The ring machine of Persistence §9: `advance` goes s0 → s1 → s2 → s0 while the `enabled` column allows
/// it; `reset` only from s2.
@StateMachine
final class StoreRing: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var enabled = true
  var storeID: Int { id }

  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<StoreRing> { sm in
    sm.addState("s0")
    sm.addState("s1")
    sm.addState("s2")
    sm.when("advance", transitionFrom: "s0", to: "s1").guarded { ring in
      StoreGates.shared.pass(ring.id)
      return ring.enabled
    }
    sm.when("advance", transitionFrom: "s1", to: "s2").guarded { $0.enabled }
    sm.when("advance", transitionFrom: "s2", to: "s0").guarded { $0.enabled }
    sm.when("reset", transitionFrom: "s2", to: "s0")
  }
}

/// Gates a test can close on a row id: a guard passing a closed gate says so and waits until the
/// test opens it (to hold a store's write lock, P3).
final class StoreGates: @unchecked Sendable {
  static let shared = StoreGates()
  private let lock = NSLock()
  private var gates: [Int: (entered: DispatchSemaphore, open: DispatchSemaphore)] = [:]

  /// Closes the gate of `id`; returns (entered, open): wait on the first, signal the second.
  func close(_ id: Int) -> (entered: DispatchSemaphore, open: DispatchSemaphore) {
    let gate = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    lock.withLock { gates[id] = gate }
    return gate
  }

  func pass(_ id: Int) {
    guard let gate = lock.withLock({ gates.removeValue(forKey: id) }) else { return }
    gate.entered.signal()
    gate.open.wait()
  }
}
