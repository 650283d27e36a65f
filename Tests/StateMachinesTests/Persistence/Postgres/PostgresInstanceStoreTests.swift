// The PostgreSQL store of run-time definitions: `DynamicStateMachine` rows in `sm_instances`, on
// the same step engine as the record store (Persistence §11); the twin of
// SQLiteInstanceStoreTests, against the real server.

#if PostgreSQL
import Foundation
import PostgresNIO
import StateMachines
import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL store: run-time definitions in sm_instances",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresInstanceStoreTests {
  @Test("a statechart built at run time: insert, fire, history, deadlines, scopes, restore, two machines in one table")
  func runTimeDefinition() async throws {
    let database = PostgresTestDatabase()
    try await database.execute("CREATE SCHEMA IF NOT EXISTS \(database.schema)")
    try await PostgresStateMachineTables.create(on: database.client)
    let clock = ManualStoreClock()
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in buildPlayer(sm) })
    let players = PostgresInstanceStore(database.client, definition: definition, machine: "player", clock: .manual(clock))
    // Another machine with the same ids in the same table: rows never mix.
    let doors = PostgresInstanceStore(
      database.client,
      definition: try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
        sm.addState("closed")
        sm.addState("opened")
        sm.when("open", transitionFrom: "closed", to: "opened")
      }), machine: "door")
    #expect(players.machine == "player")
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
    #expect(try await players.allIDs() == ["a", "b"])
    #expect(try await doors.load("a")?.state == "closed")
    #expect(try await doors.allIDs() == ["a"])
    #expect(try await doors.history(of: "a").isEmpty)
    // P9: the timeout fires on the store's clock, and only the player's deadline exists.
    #expect(try await doors.fireDueTimeouts() == 0)
    clock.advance(by: .seconds(61))
    #expect(try await players.fireDueTimeouts() == 1)
    #expect(try await players.load("a")?.state == "on/stopped")
    #expect(try await players.history(of: "a").last?.cause == .timeout)
    #expect(try await players.deadlines(of: "a").isEmpty)
    // A region chart round trip, and a restore.
    try await players.fire("deck", on: "b")
    try await players.fire("mute", on: "b")
    #expect(try await players.load("b")?.state == "deck/audio/muted,deck/video/sd")
    #expect(try await players.ids(in: "video") == ["b"])
    #expect(try await players.ids(in: "deck/audio/muted") == ["b"])
    try await players.restore("b", to: "off")
    #expect(try await players.load("b")?.state == "off")
    #expect(try await players.history(of: "b").last?.cause == .restore)
    #expect(try await players.verify().isClean)
    // P6: a fire with a recorded request id replays its step.
    let request = UUID()
    let first = try await doors.fire("open", on: "a", options: FireOptions(requestID: request))
    let again = try await doors.fire("open", on: "a", options: FireOptions(requestID: request))
    #expect(!first.replayed && again.replayed)
    #expect(again.to == "opened" && again.version == 1)
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
    #expect(try await players.storedState(of: "zzz") == nil)
  }

  @Test("P12: migrate moves rows out of a removed state; verify names a row whose state is not in the chart")
  func migrateAndVerify() async throws {
    let database = PostgresTestDatabase()
    try await database.execute("CREATE SCHEMA IF NOT EXISTS \(database.schema)")
    try await PostgresStateMachineTables.create(on: database.client)
    let definition = try StateMachineDefinition<DynamicStateMachine>(validating: { sm in
      sm.addState("closed")
      sm.addState("opened")
      sm.when("open", transitionFrom: "closed", to: "opened")
      sm.when("close", transitionFrom: "opened", to: "closed")
    })
    let doors = PostgresInstanceStore(database.client, definition: definition, machine: "door")
    for id in ["a", "b", "c"] { try await doors.insert(id) }
    try await database.execute("UPDATE sm_instances SET state = 'ajar' WHERE machine = 'door' AND entity_id IN ('a', 'c')")
    let report = try await doors.verify()
    #expect(report.unknownStates == ["a": "ajar", "c": "ajar"])
    guard case .unknownStoredState = await storeError({ try await doors.fire("open", on: "a") }) else {
      Issue.record("a row in a state the chart lacks did not fail with .unknownStoredState")
      return
    }
    #expect(try await doors.migrate(from: "ajar", to: "opened") == 2)
    #expect(try await doors.ids(in: "opened") == ["a", "c"])
    #expect(try await doors.history(of: "a").map(\.cause) == [.migration])
    #expect(try await doors.verify().isClean)
    try await doors.fire("close", on: "c")
    #expect(try await doors.storedState(of: "c")?.version == 2)
  }
}
#endif
