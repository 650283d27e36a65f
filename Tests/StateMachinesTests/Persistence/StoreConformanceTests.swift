// The conformance suite against every store this build has: the in-memory reference always, the
// SQLite store with the trait `SQLite` (a real database file per test), the PostgreSQL store with
// the trait `PostgreSQL` when STATEMACHINES_PG_URL names a server (a schema per test). Each check
// runs once per store, as a test case of its own; `.ci/run` checks the number of cases per store.

import Foundation
import Testing

/// The stores the conformance suite runs against in this build.
enum StoreKind: String, Sendable, CustomTestStringConvertible {
  case inMemory = "in memory"
  case sqlite = "SQLite"
  case postgres = "PostgreSQL"

  /// Every store compiled in.
  static var enabled: [StoreKind] {
    var kinds: [StoreKind] = [.inMemory]
    #if SQLite
      kinds.append(.sqlite)
    #endif
    #if PostgreSQL
      if postgresTestURL != nil { kinds.append(.postgres) }
    #endif
    return kinds
  }

  var testDescription: String { rawValue }

  /// The suite on a new store of this kind (a new database for a SQL store).
  var suite: StoreConformance {
    switch self {
    case .inMemory: return StoreConformance(factory: InMemoryStoreFactory())
    case .sqlite:
      #if SQLite
        return StoreConformance(factory: SQLiteStoreFactory())
      #else
        fatalError("the SQLite store is not compiled in")
      #endif
    case .postgres:
      #if PostgreSQL
        return StoreConformance(factory: PostgresStoreFactory())
      #else
        fatalError("the PostgreSQL store is not compiled in")
      #endif
    }
  }
}

@Suite("Store conformance (Persistence §9)", .timeLimit(.minutes(1)))
struct StoreConformanceTests {
  @Test("P1, P2: insert at version 0, a fire writes state, version, columns and one history row", arguments: StoreKind.enabled)
  func flatRoundTrip(_ store: StoreKind) async throws { try await store.suite.flatRoundTrip() }

  @Test("P1: nesting, history, regions, eventless and queued steps, a final state survive load → fire → load", arguments: StoreKind.enabled)
  func statechartRoundTrips(_ store: StoreKind) async throws { try await store.suite.statechartRoundTrips() }

  @Test("S15 across the store: a history record survives load", arguments: StoreKind.enabled)
  func historySurvivesLoad(_ store: StoreKind) async throws { try await store.suite.historySurvivesLoad() }

  @Test("die survives load; a terminated row keeps no deadline (P8)", arguments: StoreKind.enabled)
  func dieSurvivesLoad(_ store: StoreKind) async throws { try await store.suite.dieSurvivesLoad() }

  @Test("P3: a fire by id evaluates the event against the new state, no overwrite", arguments: StoreKind.enabled)
  func fireByIDSeesTheNewState(_ store: StoreKind) async throws { try await store.suite.fireByIDSeesTheNewState() }

  @Test("P1–P5: a generated store method fires one step; a refusal is false; the object holds the row", arguments: StoreKind.enabled)
  func generatedMethodsFireThroughTheStore(_ store: StoreKind) async throws { try await store.suite.generatedMethodsFireThroughTheStore() }

  @Test("P4: a generated method on a stale object throws conflict, then holds the winner's row", arguments: StoreKind.enabled)
  func generatedMethodLostRace(_ store: StoreKind) async throws { try await store.suite.generatedMethodLostRace() }

  @Test("P3, P4: two objects at one version race from two tasks: one commits, one conflicts", arguments: StoreKind.enabled)
  func generatedMethodsRaceFromTwoTasks(_ store: StoreKind) async throws { try await store.suite.generatedMethodsRaceFromTwoTasks() }

  @Test("Binding, typed names, a failed callback and the by-name forms of a store-managed object", arguments: StoreKind.enabled)
  func generatedMethodsBindingAndFailures(_ store: StoreKind) async throws { try await store.suite.generatedMethodsBindingAndFailures() }

  @Test("Persistence §6, P4 by id: a generated method on a code-free step compares versions; a stale object conflicts", arguments: StoreKind.enabled)
  func generatedMethodOnTheFastPath(_ store: StoreKind) async throws { try await store.suite.generatedMethodOnTheFastPath() }

  @Test("Persistence §7: the scheduler's backlog: parked rows and the age of the oldest due deadline", arguments: StoreKind.enabled)
  func schedulerBacklogAgesTheOldestDueDeadline(_ store: StoreKind) async throws { try await store.suite.schedulerBacklogAgesTheOldestDueDeadline() }

  @Test("P4: a stale object gets a conflict, nothing written; retry reloads", arguments: StoreKind.enabled)
  func staleObjectConflicts(_ store: StoreKind) async throws { try await store.suite.staleObjectConflicts() }

  @Test("P2, P3, P4: concurrent fires by id and on stale objects keep the ledger exact", arguments: StoreKind.enabled)
  func concurrentFiresKeepTheLedger(_ store: StoreKind) async throws { try await store.suite.concurrentFiresKeepTheLedger() }

  @Test("P5: after callbacks and observers run once after the commit, never for a rejection", arguments: StoreKind.enabled)
  func afterCallbacksRunOnceAfterCommit(_ store: StoreKind) async throws { try await store.suite.afterCallbacksRunOnceAfterCommit() }

  @Test("P5: a throwing entry action rolls the step back; after never runs; the object is unchanged", arguments: StoreKind.enabled)
  func throwingEntryActionRollsBack(_ store: StoreKind) async throws { try await store.suite.throwingEntryActionRollsBack() }

  @Test("P6: a request id replays the recorded outcome and writes nothing", arguments: StoreKind.enabled)
  func requestIDIsIdempotent(_ store: StoreKind) async throws { try await store.suite.requestIDIsIdempotent() }

  @Test("P12: an unknown stored state is neither loaded nor fired; verify reports it", arguments: StoreKind.enabled)
  func unknownStoredStateIsRefused(_ store: StoreKind) async throws { try await store.suite.unknownStoredStateIsRefused() }

  @Test("P8, P12: restore repairs a row without callbacks and re-arms its deadlines", arguments: StoreKind.enabled)
  func restoreRepairs(_ store: StoreKind) async throws { try await store.suite.restoreRepairs() }

  @Test("names compare by canonical equivalence in fires, restores and scopes; rows keep the declared spelling", arguments: StoreKind.enabled)
  func canonicalNames(_ store: StoreKind) async throws { try await store.suite.canonicalNames() }

  @Test("P14: scopes match descendants and page", arguments: StoreKind.enabled)
  func scopes(_ store: StoreKind) async throws { try await store.suite.scopes() }

  @Test("P8: deadlines are armed on entry, deleted on exit, re-armed by a self-transition", arguments: StoreKind.enabled)
  func deadlinesFollowTheConfiguration(_ store: StoreKind) async throws { try await store.suite.deadlinesFollowTheConfiguration() }

  @Test("P9, P10, P15: a due deadline fires once on the store's clock", arguments: StoreKind.enabled)
  func dueDeadlineFiresOnce(_ store: StoreKind) async throws { try await store.suite.dueDeadlineFiresOnce() }

  @Test("P10: concurrent scheduler passes fire each deadline exactly once", arguments: StoreKind.enabled)
  func concurrentSchedulersFireEachDeadlineOnce(_ store: StoreKind) async throws { try await store.suite.concurrentSchedulersFireEachDeadlineOnce() }

  @Test("P8: a posted event is a deadline of no state, fired once", arguments: StoreKind.enabled)
  func postedEventFiresOnce(_ store: StoreKind) async throws { try await store.suite.postedEventFiresOnce() }

  @Test("P11: a deadline whose guards are false is consumed", arguments: StoreKind.enabled)
  func deadlineWithFalseGuardsIsConsumed(_ store: StoreKind) async throws { try await store.suite.deadlineWithFalseGuardsIsConsumed() }

  @Test("P16: outbox messages are written with their step and delivered at least once", arguments: StoreKind.enabled)
  func outboxDeliversAtLeastOnce(_ store: StoreKind) async throws { try await store.suite.outboxDeliversAtLeastOnce() }

  @Test("Persistence §6: a fire by id without code (the fast path) gives the full path's outcome, history and row; P4, P6", arguments: StoreKind.enabled)
  func fastPathMatchesFullPath(_ store: StoreKind) async throws { try await store.suite.fastPathMatchesFullPath() }

  @Test("Persistence §6: random fires by id with and without code, compared with the in-memory oracle", arguments: StoreKind.enabled)
  func fastPathDifferential(_ store: StoreKind) async throws { try await store.suite.fastPathDifferential() }
}
