// The rows of the PostgreSQL store benchmark (Benchmarks/README.md): the
// hand-written baselines B0 and B1, the store's locked step S1–S3 and its fast path, each one
// event per call on the calling task's own row, all on one `PostgresClient`.

import PostgresNIO
import StateMachines
import StateMachinesPostgres

/// A row of the table; its database rows start at `base`.
enum PostgresCaseID: String, CaseIterable, Sendable {
  case b0 = "B0"
  case b1 = "B1"
  case b0p = "B0p"
  case b4p = "B4p"
  case s1 = "S1"
  case s2 = "S2"
  case s3 = "S3"
  case fast = "fast"
  case fastAlone = "fast1"
  case generated = "G2"

  var base: Int {
    switch self {
    case .b0: 1000
    case .b1: 2000
    case .s1: 3000
    case .s2: 4000
    case .s3: 5000
    case .fast: 6000
    case .fastAlone: 13000
    case .generated: 10000
    case .b0p: 12000
    case .b4p: 14000
    }
  }

  var name: String {
    switch self {
    case .b0: "by hand: single-statement compare-and-set"
    case .b1: "by hand: BEGIN; SELECT … FOR UPDATE; UPDATE (CAS); INSERT history; COMMIT"
    case .b0p: "by hand: minimal.sql's CAS + history row, prepared through postgres-nio"
    case .b4p: "by hand: B0p's statement batched by hand, a VALUES list of half the tasks' rows, from 2 tasks"
    case .s1: "store fire (locked step), history off"
    case .s2: "store fire (locked step), history on"
    case .s3: "store fire arming a deadline / deleting it"
    case .fast: "store fire of an event without code (fast path)"
    case .fastAlone: "the fast path with each fire its own statement (batchesFires: false)"
    case .generated: "the fast row through the generated API: try await toggle.flip()"
    }
  }

  /// The database row of concurrent task `task`.
  func row(_ task: Int) -> Int { base + task }

  /// The table of the case's rows.
  var table: String { self == .s3 ? "countdowns" : "toggles" }
  /// Whether each event writes a history row.
  var writesHistory: Bool { ![.b0, .s1].contains(self) }
}

/// One event of a case on the row of task `task`; throws when it did not take its transition.
typealias PostgresEvent = @Sendable (_ task: Int) async throws -> Void

/// A call of a case batched by hand: task `task` of at most two sends the events of `rows` rows at once.
typealias PostgresBatchEvent = @Sendable (_ task: Int, _ rows: Int) async throws -> Void

/// One row of the table: an event per call, or (`batch`) a batch by hand per call.
struct PostgresCase: Sendable {
  let id: PostgresCaseID
  var batch: PostgresBatchEvent?
  let fire: PostgresEvent

  init(id: PostgresCaseID, fire: @escaping PostgresEvent) {
    self.id = id
    self.fire = fire
  }

  init(id: PostgresCaseID, batch: @escaping PostgresBatchEvent) {
    self.id = id
    self.batch = batch
    fire = { _ in throw PostgresBenchmarkFailure("\(id.rawValue) fires in batches") }
  }
}

/// The cases, each with the stores it fires through, all on `client`.
func makePostgresCases(_ client: PostgresClient) -> [PostgresCase] {
  var noHistory = StoreConfiguration<PostgresToggle>()
  noHistory.history = false
  let plain = PostgresStateMachineStore<PostgresToggle>(client, configuration: noHistory)
  let audited = PostgresStateMachineStore<PostgresToggle>(client)
  let alone = PostgresStateMachineStore<PostgresToggle>(client, options: PostgresStoreOptions(batchesFires: false))
  let countdowns = PostgresStateMachineStore<PostgresCountdown>(client)
  let tasks = (0..<PostgresRows.perCase).map { _ in PostgresTaskState() }
  let minimalTasks = (0..<PostgresRows.perCase).map { _ in PostgresTaskState() }
  let batchTasks = (0..<PostgresRows.perCase).map { _ in PostgresTaskState() }
  let s3Tasks = (0..<PostgresRows.perCase).map { _ in PostgresTaskState() }
  let toggles = (0..<PostgresRows.perCase).map { _ in PostgresTaskToggle() }

  return [
    PostgresCase(id: .b0) { task in try await postgresCompareAndSet(client, id: PostgresCaseID.b0.row(task), tasks[task]) },
    PostgresCase(id: .b1) { task in try await postgresLockedTransaction(client, id: PostgresCaseID.b1.row(task)) },
    PostgresCase(id: .b0p) { task in
      try await postgresMinimalPrepared(client, id: PostgresCaseID.b0p.row(task), minimalTasks[task])
    },
    PostgresCase(id: .b4p) { task, rows in
      let indices = Array((task * rows)..<(task * rows + rows))
      try await postgresMinimalBatch(client, ids: indices.map(PostgresCaseID.b4p.row), indices.map { batchTasks[$0] })
    },
    PostgresCase(id: .s1) { task in _ = try await plain.fire("turn", on: PostgresCaseID.s1.row(task)) },
    PostgresCase(id: .s2) { task in _ = try await audited.fire("turn", on: PostgresCaseID.s2.row(task)) },
    PostgresCase(id: .s3) { task in
      let state = s3Tasks[task]
      _ = try await countdowns.fire(state.fired % 2 == 0 ? "start" : "stop", on: PostgresCaseID.s3.row(task))
      state.fired += 1
    },
    // Exactly what an application writes; once the store has its single-statement fast path
    // (Persistence §6), this row takes it with no change here.
    PostgresCase(id: .fast) { task in _ = try await audited.fire("flip", on: PostgresCaseID.fast.row(task)) },
    PostgresCase(id: .fastAlone) { task in _ = try await alone.fire("flip", on: PostgresCaseID.fastAlone.row(task)) },
    // What business code writes: the task's object, loaded once, fires through its generated
    // method (by id at the version it holds; it stays current, so it never conflicts).
    PostgresCase(id: .generated) { task in
      let holder = toggles[task]
      if holder.toggle == nil { holder.toggle = try await audited.load(PostgresCaseID.generated.row(task)) }
      guard let toggle = holder.toggle, try await toggle.flip() else { throw PostgresGeneratedRefused() }
    },
  ]
}

/// The object a G2 task holds, loaded on its first event. Each task uses only its own.
final class PostgresTaskToggle: @unchecked Sendable {
  var toggle: PostgresToggle?
}

/// G2's object refused `flip`, or its row was missing.
struct PostgresGeneratedRefused: Error {}
