// The fast path of Persistence §6 against the full path: a fire by id whose step runs no code
// is written without an object by the SQL stores; every observable result (the fire's outcome,
// the history rows, the loaded row, P4's conflict, P6's replay) must be the full path's, which the
// in-memory store (no fast path) gives as the oracle.

import Foundation
import StateMachines
import Testing

/// A flat machine whose events mix steps that run no code (`flip`, `tap`: the fast path) with
/// steps that need the object: an entry action (`jam`), a guard (`fix`), a state with a timeout
/// (`sleep`, `wake`), a final state (`smash`).
@StateMachine
final class StoreSwitch: Codable, StoreManagedStateMachine, @unchecked Sendable {
  var id: Int
  var jams = 0
  var storeID: Int { id }

  init(id: Int) { self.id = id }

  static let stateMachine = StateMachineDefinition<StoreSwitch> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.addState("jammed")
    sm.addState("asleep")
    sm.addFinalState("broken")
    sm.when("flip", transitionFrom: "off", to: "on")
    sm.when("flip", transitionFrom: "on", to: "off")
    sm.when("tap", transitionFrom: "off", to: "off")
    sm.when("jam", transitionFrom: "on", to: "jammed")
    sm.onEntry("jammed") { $0.jams += 1 }
    sm.when("fix", transitionFrom: "jammed", to: "off").guarded { $0.jams < 3 }
    sm.when("sleep", transitionFrom: "off", to: "asleep")
    sm.when("wake", transitionFrom: "asleep", to: "off", after: .seconds(60))
    sm.when("smash", transitionFrom: "on", to: "broken")
  }
}

/// One fire by id: its outcome or its rejection, in a form two stores can be compared by.
private struct FireOutcome: Equatable, CustomStringConvertible {
  var from = "", to = "", version: Int64 = 0, transitions: [CompletedTransition] = [], replayed = false
  var state = "", jams = 0
  var rejected: StateMachineErrorCase?
  var failure: String?

  var description: String {
    if let rejected { return "rejected \(rejected)" }
    if let failure { return "failed \(failure)" }
    return "\(from) -> \(to) v\(version) \(transitions) replayed \(replayed) (object \(state), \(jams) jams)"
  }
}

extension StoreConformance {
  /// Persistence §6: fires by id on a machine with and without code-free steps, on this store and
  /// on the in-memory oracle (which always runs the full step): every outcome, rejection, payload,
  /// request id (P6), history row (P2), loaded row and deadline (P8) is the same; a stale object
  /// still gets P4's conflict after fast fires; a missing row is `.notFound`.
  func fastPathMatchesFullPath() async throws {
    let switches = try await store(StoreSwitch.self)
    let oracle = InMemoryStateMachineStore(StoreSwitch.stateMachine, clock: .manual(clock))
    let id = StoreTestIDs.next()
    for s in [switches, oracle] as [any StateMachineStore<StoreSwitch>] { try await s.insert(StoreSwitch(id: id)) }
    let stale = try #require(try await switches.load(id))
    let request = UUID()
    // (event, payload, request id): pure steps, rejections of pure events, steps that need the
    // object, a payload, a request id and its replay, a final state and a terminated row.
    let script: [(String, Int?, UUID?)] = [
      ("flip", nil, nil), ("flip", nil, nil), ("tap", nil, nil), ("flip", 7, nil), ("jam", nil, nil),
      ("flip", nil, nil), ("fix", nil, nil), ("tap", nil, request), ("tap", nil, request), ("sleep", nil, nil),
      ("flip", nil, nil), ("wake", nil, nil), ("nonsense", nil, nil), ("flip", nil, nil), ("smash", nil, nil),
      ("flip", nil, nil),
    ]
    for (event, payload, requestID) in script {
      let options = FireOptions(requestID: requestID)
      let got = await outcome { try await switches.fire(event, on: id, payload: payload, options: options) }
      let expected = await outcome { try await oracle.fire(event, on: id, payload: payload, options: options) }
      #expect(got == expected, "\(event)")
    }
    try await expectSameRows(switches, oracle, id)
    // P4: the object loaded before the fast fires is stale.
    guard case .conflict(_, let expectedVersion, let currentVersion, let currentState) =
      await storeError({ try await switches.fire("flip", on: stale) })
    else {
      Issue.record("a stale object's fire is not a conflict")
      return
    }
    let stored = try await oracle.history(of: id)
    #expect(expectedVersion == 0 && currentVersion == stored.last?.version && currentState == "broken")
    guard case .notFound = await storeError({ try await switches.fire("flip", on: StoreTestIDs.next()) }) else {
      Issue.record("a fire on a missing row is not notFound")
      return
    }
  }

  /// Persistence §6, differential: random events by id (most of them code-free) on several rows,
  /// each fire compared with the in-memory oracle, then every row's history and columns.
  func fastPathDifferential() async throws {
    let switches = try await store(StoreSwitch.self)
    let oracle = InMemoryStateMachineStore(StoreSwitch.stateMachine, clock: .manual(clock))
    let ids = (0..<3).map { _ in StoreTestIDs.next() }
    for id in ids {
      for s in [switches, oracle] as [any StateMachineStore<StoreSwitch>] { try await s.insert(StoreSwitch(id: id)) }
    }
    var random = SeededGenerator(seed: 0x5eed_1920)
    let events = ["flip", "flip", "flip", "tap", "tap", "jam", "fix", "sleep", "wake", "smash"]
    for step in 0..<150 {
      let id = ids[Int(random.next() % UInt64(ids.count))]
      let event = events[Int(random.next() % UInt64(events.count))]
      // `smash` only rarely, so that most rows stay alive.
      if event == "smash" && random.next() % 4 != 0 { continue }
      let payload: Int? = random.next() % 3 == 0 ? step : nil
      let got = await outcome { try await switches.fire(event, on: id, payload: payload, options: FireOptions()) }
      let expected = await outcome { try await oracle.fire(event, on: id, payload: payload, options: FireOptions()) }
      #expect(got == expected, "step \(step): \(event) on \(id)")
    }
    for id in ids { try await expectSameRows(switches, oracle, id) }
  }

  /// The outcome of a fire, or its rejection.
  private func outcome(_ fire: () async throws -> Fired<StoreSwitch>) async -> FireOutcome {
    do {
      let fired = try await fire()
      return FireOutcome(
        from: fired.from, to: fired.to, version: fired.version, transitions: fired.transitions,
        replayed: fired.replayed, state: fired.model.state, jams: fired.model.jams)
    } catch let error as StateMachineStoreError {
      if let rejected = rejection(error) { return FireOutcome(rejected: rejected) }
      return FireOutcome(failure: "\(error)")
    } catch {
      return FireOutcome(failure: "\(error)")
    }
  }

  /// The two stores hold the same row: history (P2, P6's request id, payloads), machine and own
  /// columns, deadlines (P8).
  private func expectSameRows(
    _ store: any StateMachineStore<StoreSwitch>, _ oracle: any StateMachineStore<StoreSwitch>, _ id: Int
  ) async throws {
    func rows(_ history: [StoredTransition]) -> [String] {
      history.map { row in
        let payload = row.payload.map { String(decoding: $0, as: UTF8.self) } ?? "-"
        return "\(row.version) \(row.from)-\(row.event)->\(row.to) \(row.cause) \(payload) "
          + "\(row.requestID?.uuidString ?? "-")"
      }
    }
    #expect(rows(try await store.history(of: id)) == rows(try await oracle.history(of: id)))
    let loaded = try #require(try await store.load(id))
    let expected = try #require(try await oracle.load(id))
    #expect(StoreSwitch.stateMachine.storedState(of: loaded) == StoreSwitch.stateMachine.storedState(of: expected))
    #expect(loaded.jams == expected.jams)
    #expect(try await store.deadlines(of: id).map(\.event) == oracle.deadlines(of: id).map(\.event))
  }
}
