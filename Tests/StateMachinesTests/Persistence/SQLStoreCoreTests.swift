// The core every SQL store shares (Persistence/SQLStoreCore), on its own: the rows a step writes,
// the scheduler's decisions about a consumed deadline, and the outbox delivery loop. The SQLite
// and PostgreSQL conformance suites run the same code through real databases.

import Foundation
@testable import StateMachines
import Testing

@Suite("SQL store core: a step's rows, a deadline's step and retry, outbox delivery", .timeLimit(.minutes(1)))
struct SQLStoreCoreTests {
  struct Amount: Codable, Sendable { let cents: Int }

  /// off –on→ on (arms `expire` after 5 s) –expire→ off; `gated` only when the guard holds.
  static let definition = try! StateMachineDefinition<DynamicStateMachine>(validating: { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("on", transitionFrom: "off", to: "on")
    sm.when("expire", transitionFrom: "on", to: "off", after: .seconds(5))
    sm.when("gated", transitionFrom: "off", to: "on").guarded { _ in false }
  })

  func machine(in state: String, version: Int64 = 7) throws(StateMachineStoreError) -> DynamicStateMachine {
    let machine = DynamicStateMachine(Self.definition)
    try Self.definition.load(StoredMachineState(state: state, version: version), into: machine, id: "m")
    return machine
  }

  @Test("P2, P8, P16: history numbered from the version read, payload as JSON, armed and exited deadlines, messages")
  func rowsOfAStep() throws {
    let machine = try machine(in: "off")
    let step = try Self.definition.storeStep("on", payload: Amount(cents: 250), on: machine)
    var configuration = StoreConfiguration<DynamicStateMachine>()
    configuration.outbox(after: "on", topic: "switched") { _, transition in transition.to }
    let rows = try StoreStepRows(step, model: machine, key: "m", configuration: configuration)
    #expect(rows.history.map(\.version) == [8])
    #expect(rows.history.map { "\($0.from)-\($0.event)->\($0.to)" } == ["off-on->on"])
    #expect(rows.history.first?.payload == #"{"cents":250}"#)
    #expect(rows.armed == [ArmedTimeout(state: "on", event: "expire", delay: .seconds(5))])
    #expect(rows.messages.map(\.topic) == ["switched"] && rows.messages.map(\.version) == [8])
    #expect(String(decoding: rows.messages[0].payload, as: UTF8.self) == #""on""#)

    let back = try Self.definition.storeStep("expire", payload: "not encodable as an object", on: machine)
    configuration.history = false
    let quiet = try StoreStepRows(back, model: machine, key: "m", configuration: configuration)
    #expect(quiet.history.isEmpty && quiet.messages.isEmpty && quiet.armed.isEmpty)
    #expect(quiet.exited == ["on"])
  }

  @Test("P16: an outbox rule that throws fails the rows with callbackFailed, before anything is written")
  func throwingOutboxRule() throws {
    struct Refused: Error {}
    let machine = try machine(in: "off")
    let step = try Self.definition.storeStep("on", payload: nil, on: machine)
    var configuration = StoreConfiguration<DynamicStateMachine>()
    configuration.outbox(after: "on", topic: "switched") { _, _ -> String in throw Refused() }
    #expect {
      _ = try StoreStepRows(step, model: machine, key: "m", configuration: configuration)
    } throws: { error in
      guard case .callbackFailed(let event, let underlying) = error as? StateMachineStoreError else { return false }
      return event == "on" && underlying is Refused
    }
  }

  @Test("P10, P11, P12: a deadline's step; a refusal consumes it; an event the definition lacks is parked, unloaded")
  func deadlineStep() throws {
    var loads = 0
    let taken = try StoreDeadlineFiring.step(Self.definition, "on") { () throws(StateMachineStoreError) in
      loads += 1
      return try machine(in: "off")
    }
    #expect(taken?.0.after.state == "on" && taken?.1.state == "on")
    let refused = try StoreDeadlineFiring.step(Self.definition, "gated") { () throws(StateMachineStoreError) in
      loads += 1
      return try machine(in: "off")
    }
    #expect(refused == nil)
    #expect(loads == 2)
    #expect(throws: StateMachineStoreError.self) {
      _ = try StoreDeadlineFiring.step(Self.definition, "vanished") { () throws(StateMachineStoreError) in
        loads += 1
        return try machine(in: "off")
      }
    }
    #expect(loads == 2, "an unknown event is refused before the row is decoded")
  }

  @Test("P11, P12: a failed deadline is parked at once for a bad row or event, retried for a callback, rethrown for the database")
  func deadlineRetry() throws {
    #expect(try StoreDeadlineFiring.parksAtOnce(after: .unknownStoredState(id: "m", state: "gone")))
    #expect(try StoreDeadlineFiring.parksAtOnce(after: .rejected(.unknownEvent("gone"))))
    struct Thrown: Error {}
    #expect(try !StoreDeadlineFiring.parksAtOnce(after: .callbackFailed(event: "on", underlying: Thrown())))
    #expect(throws: StateMachineStoreError.self) {
      _ = try StoreDeadlineFiring.parksAtOnce(after: .database(Thrown()))
    }
  }

  @Test("P16: each claimed message goes to its topic's handler; a failure or a missing handler is reported, not counted")
  func outboxDelivery() async throws {
    struct Down: Error, CustomStringConvertible { var description: String { "down" } }
    let delivery = StoreOutboxDelivery()
    let seen = TestRecorder()
    delivery.handle("mail") { seen.append("mail \($0.id)") }
    delivery.handle("sms") { _ in throw Down() }
    let messages = [("mail", 1), ("sms", 2), ("fax", 3), ("mail", 4)].map {
      OutboxMessage(id: Int64($0.1), entityID: "m", version: 1, topic: $0.0, payload: Data())
    }
    var finished: [String] = []
    let delivered = try await delivery.deliver(messages) { message, failure async throws(StateMachineStoreError) in
      finished.append("\(message.id): \(failure ?? "ok")")
    }
    #expect(delivered == 2)
    #expect(seen.lines == ["mail 1", "mail 4"])
    #expect(finished == ["1: ok", "2: down", "3: no handler for topic 'fax'", "4: ok"])
  }
}
