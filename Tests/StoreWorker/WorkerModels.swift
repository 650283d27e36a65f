// The persisted classes of the worker processes (Persistence §9): the ring machine of the race
// and kill tests, and the booking machine of the restart test. Each database adds its record
// conformances and tables (WorkerDatabase+SQLite.swift, WorkerDatabase+Postgres.swift), as an
// application would keep them.

#if SQLite || PostgreSQL
import Foundation
import StateMachines

/// The ring machine of Persistence §9: `advance` goes s0 → s1 → s2 → s0 while the `enabled` column
/// allows it; `reset` only from s2. Its `after` callbacks leave a marker file, so that a test can
/// tell whether they ran after a kill (P5).
@StateMachine
final class Ring: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var enabled: Bool
  var storeID: Int { id }

  init(id: Int, enabled: Bool) {
    self.id = id
    self.enabled = enabled
  }

  static let stateMachine = StateMachineDefinition<Ring> { sm in
    sm.addState("s0")
    sm.addState("s1")
    sm.addState("s2")
    sm.when("advance", transitionFrom: "s0", to: "s1").guarded { $0.enabled }
    sm.when("advance", transitionFrom: "s1", to: "s2").guarded { $0.enabled }
    sm.when("advance", transitionFrom: "s2", to: "s0").guarded { $0.enabled }
    sm.when("reset", transitionFrom: "s2", to: "s0")
    for event in ["advance", "reset"] {
      sm.after(event) { ring in AfterMarker.shared.touch(ring.id, event) }
    }
  }

  /// The configuration of every ring store: each transition writes an outbox message on the topic
  /// `ring` (P16); `--lease MS` shortens the outbox lease, so that the messages a killed
  /// dispatcher claimed are due again soon (Persistence §8).
  static func configuration(_ arguments: WorkerArguments) throws -> StoreConfiguration<Ring> {
    var configuration = StoreConfiguration<Ring>()
    for event in ["advance", "reset"] {
      configuration.outbox(after: event, topic: "ring") { ring, transition in
        ["ring": "\(ring.id)", "from": transition.from, "to": transition.to]
      }
    }
    if arguments.optional("lease") != nil { configuration.lease = .milliseconds(try arguments.int("lease")) }
    return configuration
  }
}

/// A booking: a seat `reserved` for 2 s (then `released`) unless confirmed, or an invoice
/// `awaitingPayment` for an hour. The column `awaitsPayment` picks the first state: a new row
/// leaves `new` at once by an eventless transition, so that an insert lands in either state with
/// its deadline armed and no history row.
@StateMachine
final class Booking: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var awaitsPayment: Bool
  var storeID: Int { id }

  init(id: Int, awaitsPayment: Bool) {
    self.id = id
    self.awaitsPayment = awaitsPayment
  }

  static let stateMachine = StateMachineDefinition<Booking> { sm in
    sm.addState("new")
    sm.addState("reserved")
    sm.addState("released")
    sm.addState("confirmed")
    sm.addState("awaitingPayment")
    sm.addState("expired")
    sm.always(transitionFrom: "new", to: "awaitingPayment", if: { $0.awaitsPayment })
    sm.always(transitionFrom: "new", to: "reserved", if: { !$0.awaitsPayment })
    sm.when("release", transitionFrom: "reserved", to: "released", after: .seconds(2))
    sm.when("confirm", transitionFrom: "reserved", to: "confirmed")
    sm.when("expire", transitionFrom: "awaitingPayment", to: "expired", after: .seconds(3600))
  }
}

/// A dial: `turn` goes d0 → d1 → d2 → d0 with no guard, callback or outbox message, so that a
/// store fires it on its fast path (PostgreSQL's batched when several tasks fire at once).
@StateMachine
final class Dial: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var storeID: Int { id }

  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<Dial> { sm in
    sm.addState("d0")
    sm.addState("d1")
    sm.addState("d2")
    sm.when("turn", transitionFrom: "d0", to: "d1")
    sm.when("turn", transitionFrom: "d1", to: "d2")
    sm.when("turn", transitionFrom: "d2", to: "d0")
  }
}

/// Where `after` callbacks leave their marks: one empty file per row and event in a directory a
/// test names (`--marker DIR`), nowhere without one.
final class AfterMarker: @unchecked Sendable {
  static let shared = AfterMarker()
  private let lock = NSLock()
  private var directory: String?

  func use(_ directory: String?) { lock.withLock { self.directory = directory } }

  func touch(_ id: Int, _ event: String) {
    guard let directory = lock.withLock({ self.directory }) else { return }
    _ = FileManager.default.createFile(atPath: "\(directory)/after-\(event)-\(id)", contents: Data())
  }
}
#endif
