// Concurrent fast fires of one event share a statement (Many application servers, fires batched
// under load). What that puts at risk: a fire applied twice or lost, a payload or a version given
// to the wrong fire, two fires of one row in one statement, and a statement the server refuses
// taking its neighbours' fires down with it. Each row's history is checked against the machine
// as an oracle: every entry a transition the definition has, from the state the entry before it
// left, at the next version, and the row's state the last entry's target.

#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(Testing) import StateMachines
@_spi(Testing) import StateMachinesPostgres
import Testing

@Suite(
  "PostgreSQL fast path: concurrent fires share a statement",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresFastBatchTests {
  let factory = PostgresStoreFactory()
  var database: PostgresTestDatabase { factory.database }

  /// StoreSwitch's transitions: (from, event) → to.
  static let transitions: [String: String] = [
    "off flip": "on", "on flip": "off", "off tap": "off", "on jam": "jammed", "jammed fix": "off", "on smash": "broken",
  ]

  func switches(batchesFires: Bool = true) async throws -> PostgresStateMachineStore<StoreSwitch> {
    // The factory's store creates the tables; a second store on them may change an option.
    let store = try await factory.makeStore(StoreSwitch.self, clock: .database, outbox: [])
    guard !batchesFires else { return store as! PostgresStateMachineStore<StoreSwitch> }
    return PostgresStateMachineStore<StoreSwitch>(database.client, clock: .database, options: PostgresStoreOptions(batchesFires: false))
  }

  /// Inserts `count` rows and fires `flip` once on the first, so that the event's plan is made.
  func rows(_ store: PostgresStateMachineStore<StoreSwitch>, _ count: Int) async throws -> [Int] {
    var ids: [Int] = []
    for _ in 0..<count {
      let id = StoreTestIDs.next()
      try await store.insert(StoreSwitch(id: id))
      ids.append(id)
    }
    _ = try await store.fire("flip", on: ids[0])
    return ids
  }

  /// Checks each row's history against the machine and against what its fires returned: one
  /// entry per fire that returned, each fire's version its own, each payload the one its fire
  /// sent.
  func checkRows(
    _ store: PostgresStateMachineStore<StoreSwitch>, _ ids: [Int], fired: [Int: [(version: Int64, payload: String)]]
  ) async throws {
    for id in ids {
      let history = try await store.history(of: id)
      let returned = fired[id] ?? []
      let warmUp = id == ids[0] ? 1 : 0
      #expect(history.map(\.version) == (0..<history.count).map { Int64($0 + 1) })
      #expect(history.count == returned.count + warmUp, "row \(id): \(history.count) entries, \(returned.count) fires")
      var state = "off"
      for entry in history {
        #expect(entry.from == state, "row \(id) v\(entry.version): from \(entry.from), was \(state)")
        #expect(Self.transitions["\(entry.from) \(entry.event)"] == entry.to, "row \(id): \(entry.from) –\(entry.event)→ \(entry.to)")
        state = entry.to
      }
      let stored = try #require(try await store.storedState(of: id))
      #expect(stored.state == state && stored.version == Int64(history.count))
      // Every fire's version is its own, and its payload is on that version's entry.
      #expect(Set(returned.map(\.version)).count == returned.count)
      let payloads = Dictionary(
        uniqueKeysWithValues: history.map { ($0.version, $0.payload.flatMap { try? JSONDecoder().decode(String.self, from: $0) }) })
      for fire in returned { #expect(payloads[fire.version] == fire.payload, "row \(id) v\(fire.version)") }
    }
  }

  /// `tasks` tasks, each firing `perTask` events from `events` with a payload naming the fire,
  /// on the rows in turn; what returned, by row, and how many fires were rejected.
  func fireConcurrently(
    _ store: PostgresStateMachineStore<StoreSwitch>, _ ids: [Int], tasks: Int, perTask: Int, events: [String]
  ) async throws -> (fired: [Int: [(version: Int64, payload: String)]], rejected: Int) {
    let results = try await withThrowingTaskGroup(of: [(Int, Int64, String)?].self) {
      group -> [(Int, Int64, String)?] in
      for task in 0..<tasks {
        group.addTask {
          var generator = SeededGenerator(seed: UInt64(task) + 1)
          var results: [(Int, Int64, String)?] = []
          for fire in 0..<perTask {
            let id = ids[(task + fire) % ids.count]
            let payload = "t\(task)-f\(fire)"
            do {
              let fired = try await store.fire(events.randomElement(using: &generator)!, on: id, payload: payload)
              results.append((id, fired.version, payload))
            } catch {
              guard case .rejected = error as? StateMachineStoreError else { throw error }
              results.append(nil)
            }
          }
          return results
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    var fired: [Int: [(version: Int64, payload: String)]] = [:]
    for case let .some((id, version, payload)) in results { fired[id, default: []].append((version, payload)) }
    return (fired, results.count { $0 == nil })
  }

  @Test("P1, P2: 24 tasks × 20 fires on 12 rows share statements; every fire applies once, with its own version and payload")
  func sharedStatements() async throws {
    let store = try await switches()
    let ids = try await rows(store, 12)
    let (fired, rejected) = try await fireConcurrently(store, ids, tasks: 24, perTask: 20, events: ["flip"])
    #expect(rejected == 0)
    try await checkRows(store, ids, fired: fired)
    #expect(store.sharedFastStatements > 0)
  }

  @Test("P1, P3: fast events mixed with events that run code and events a state rejects, concurrently: each row's history is the machine's")
  func mixedEvents() async throws {
    let store = try await switches()
    let ids = try await rows(store, 6)
    let (fired, rejected) = try await fireConcurrently(
      store, ids, tasks: 12, perTask: 25, events: ["flip", "flip", "flip", "tap", "jam", "fix"])
    #expect(rejected > 0)
    try await checkRows(store, ids, fired: fired)
    #expect(store.sharedFastStatements > 0)
  }

  @Test("P4: fires at the version each read share statements; a fire whose row moved on is a conflict and writes nothing")
  func expectedVersions() async throws {
    let store = try await switches()
    let ids = try await rows(store, 8)
    // Two tasks per row read its version and fire at it: where both read the same one, one of
    // them must be told of the conflict.
    let outcomes = try await withThrowingTaskGroup(of: [(Int, Int64?)].self) { group -> [(Int, Int64?)] in
      for task in 0..<16 {
        group.addTask {
          var outcomes: [(Int, Int64?)] = []
          for _ in 0..<15 {
            let id = ids[task % ids.count]
            let version = try #require(try await store.storedState(of: id)).version
            do {
              let fired = try await store.fire("flip", on: id, options: FireOptions(expectedVersion: version))
              #expect(fired.version == version + 1)
              outcomes.append((id, fired.version))
            } catch {
              guard case .conflict(_, let expected, let current, _) = error as? StateMachineStoreError else { throw error }
              #expect(expected == version && current > version)
              outcomes.append((id, nil))
            }
          }
          return outcomes
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    var fired: [Int: [(version: Int64, payload: String)]] = [:]
    for case let (id, version?) in outcomes { fired[id, default: []].append((version, "")) }
    for id in ids {
      let history = try await store.history(of: id)
      let warmUp = id == ids[0] ? 1 : 0
      #expect(history.map(\.version) == (0..<history.count).map { Int64($0 + 1) })
      #expect(history.count == (fired[id]?.count ?? 0) + warmUp)
      #expect(Set(fired[id]?.map(\.version) ?? []).count == fired[id]?.count ?? 0)
    }
    #expect(outcomes.count == 16 * 15)
    #expect(store.sharedFastStatements > 0)
  }

  @Test("A shared statement the server refuses writes nothing: its fires take the locked step alone, and only the refused row's fail")
  func refusedStatement() async throws {
    let store = try await switches()
    let ids = try await rows(store, 8)
    let refused = ids[3]
    try await database.execute(
      "CREATE FUNCTION refuse_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        + "IF NEW.entity_id = '\(refused)' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$")
    try await database.execute(
      "CREATE TRIGGER refuse_row BEFORE INSERT ON sm_transitions FOR EACH ROW EXECUTE FUNCTION refuse_row()")
    let failures = try await withThrowingTaskGroup(of: Int.self) { group in
      for task in 0..<16 {
        group.addTask {
          var failures = 0
          for fire in 0..<15 {
            let id = ids[(task + fire) % ids.count]
            do {
              _ = try await store.fire("flip", on: id)
              #expect(id != refused)
            } catch {
              guard case .database = error as? StateMachineStoreError else { throw error }
              #expect(id == refused)
              failures += 1
            }
          }
          return failures
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(failures == 30)
    #expect(try await store.history(of: refused).isEmpty)
    #expect(try await store.storedState(of: refused)?.version == 0)
    var total: Int64 = 0
    for id in ids where id != refused {
      let history = try await store.history(of: id)
      #expect(history.map(\.version) == (0..<history.count).map { Int64($0 + 1) })
      total += Int64(history.count)
    }
    #expect(total == 16 * 15 - 30 + 1)
    #expect(store.sharedFastStatements > 0)
  }

  @Test("A row another transaction holds does not hold up the shared statements: its fire waits alone, the others apply meanwhile")
  func heldRow() async throws {
    let store = try await switches()
    let ids = try await rows(store, 6)
    let held = ids[2]
    let others = ids.filter { $0 != held }
    let logger = PostgresStepLogger.logger
    let (fired, heldFire) = try await database.client.withConnection { connection in
      try await connection.query("BEGIN", logger: logger)
      try await connection.query(
        PostgresQuery(unsafeSQL: "SELECT id FROM store_switches WHERE id = \(held) FOR UPDATE"), logger: logger)
      // The held row's fire comes while the others' statements are in flight, so it waits to
      // ride with them; were the statement to wait for its row, they would wait with it, and
      // the others' fires would not end while the row is held.
      let heldFire = Task {
        try await Task.sleep(for: .milliseconds(30))
        return try await store.fire("flip", on: held)
      }
      let ended = PostgresTestFlag()
      let work = Task {
        defer { ended.set() }
        return try await fireConcurrently(store, others, tasks: 10, perTask: 30, events: ["flip"])
      }
      for _ in 0..<200 where !ended.isSet { try await Task.sleep(for: .milliseconds(100)) }
      #expect(ended.isSet, "the other rows' fires waited for the held row")
      #expect(try await store.storedState(of: held)?.version == 0)
      try await connection.query("ROLLBACK", logger: logger)
      let (fired, rejected) = try await work.value
      #expect(rejected == 0)
      return (fired, heldFire)
    }
    let heldFired = try await heldFire.value
    #expect(heldFired.version == 1 && heldFired.to == "on")
    try await checkRows(store, others, fired: fired)
    #expect(store.sharedFastStatements > 0)
  }

  @Test("With batchesFires: false every fire is its own statement, and the same invariants hold")
  func batchingOff() async throws {
    let store = try await switches(batchesFires: false)
    let ids = try await rows(store, 8)
    let (fired, rejected) = try await fireConcurrently(store, ids, tasks: 16, perTask: 10, events: ["flip"])
    #expect(rejected == 0)
    try await checkRows(store, ids, fired: fired)
    #expect(store.sharedFastStatements == 0)
  }
}
/// A flag one task sets and another polls.
final class PostgresTestFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
#endif
