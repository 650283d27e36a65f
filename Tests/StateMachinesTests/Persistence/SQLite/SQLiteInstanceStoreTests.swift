// The store of run-time definitions: `DynamicStateMachine` rows in `sm_instances`, on the same
// step engine as the record store (Persistence §11).

#if SQLite
import Foundation
import GRDB
import StateMachines
import StateMachinesSQLite
import Testing

@Suite("SQLite instance store: run-time definitions in sm_instances", .timeLimit(.minutes(1)))
struct SQLiteInstanceStoreTests {
  @Test("a statechart built at run time: insert, fire, history, deadlines, scopes, restore, two machines in one file")
  func runTimeDefinition() async throws {
    let pool = try makeTestDatabase()
    let clock = ManualStoreClock()
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in buildPlayer(sm) })
    let players = SQLiteInstanceStore(pool, definition: definition, machine: "player", clock: .manual(clock))
    // Another machine with the same ids in the same table: rows never mix.
    let doors = SQLiteInstanceStore(
      pool,
      definition: try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
        sm.addState("closed")
        sm.addState("opened")
        sm.when("open", transitionFrom: "closed", to: "opened")
      }), machine: "door")
    try await players.insert("a")
    try await players.insert("b")
    try await doors.insert("a")
    for event in ["power", "play", "seek"] { try await players.fire(event, on: "a") }
    #expect(try await players.load("a")?.state == "on/seeking")
    #expect(try await players.storedState(of: "a")?.version == 3)
    #expect(try await players.history(of: "a").map(\.to) == ["on/stopped", "on/playing", "on/seeking"])
    #expect(try await players.deadlines(of: "a").map(\.event) == ["giveUp"])
    #expect(try await players.ids(in: "on") == ["a"])
    #expect(try await players.ids(in: "off") == ["b"])
    #expect(try await players.count(in: "on/seeking") == 1)
    #expect(try await doors.load("a")?.state == "closed")
    #expect(try await doors.allIDs() == ["a"])
    // P9: the timeout fires on the store's clock.
    clock.advance(by: .seconds(61))
    #expect(try await players.fireDueTimeouts() == 1)
    #expect(try await players.load("a")?.state == "on/stopped")
    #expect(try await players.history(of: "a").last?.cause == .timeout)
    // A region chart round trip, and a restore.
    try await players.fire("deck", on: "b")
    try await players.fire("mute", on: "b")
    #expect(try await players.load("b")?.state == "deck/audio/muted,deck/video/sd")
    #expect(try await players.ids(in: "video") == ["b"])
    try await players.restore("b", to: "off")
    #expect(try await players.load("b")?.state == "off")
    #expect(try await players.verify().isClean)
    // Bad input: typed errors, nothing written.
    guard case .notFound = await storeError({ try await players.fire("power", on: "zzz") }) else {
      Issue.record("a fire on an unknown id did not fail with .notFound")
      return
    }
    guard case .rejected = await storeError({ try await players.fire("no such event", on: "a") }) else {
      Issue.record("an unknown event was not rejected")
      return
    }
    #expect(try await players.storedState(of: "a")?.version == 4)
  }
}
#endif
