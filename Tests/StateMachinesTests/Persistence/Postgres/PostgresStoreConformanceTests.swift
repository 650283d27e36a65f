// The conformance suite against the PostgreSQL store: a real server (STATEMACHINES_PG_URL), a schema per test (PERSISTENCE.md §9).

#if PostgreSQL
import Foundation

import Testing

@Suite(
  "Store conformance: PostgreSQL (PERSISTENCE.md §9)",
  .enabled(if: postgresTestURL != nil, "needs STATEMACHINES_PG_URL (a PostgreSQL server; .ci/run starts one)"),
  .timeLimit(.minutes(1)))
struct PostgresStoreConformanceTests {
  let suite = StoreConformance(factory: PostgresStoreFactory())

  @Test("P1, P2: insert at version 0, a fire writes state, version, columns and one history row")
  func flatRoundTrip() async throws { try await suite.flatRoundTrip() }

  @Test("P1: nesting, history, regions, eventless and queued steps, a final state survive load → fire → load")
  func statechartRoundTrips() async throws { try await suite.statechartRoundTrips() }

  @Test("S15 across the store: a history record survives load")
  func historySurvivesLoad() async throws { try await suite.historySurvivesLoad() }

  @Test("die survives load; a terminated row keeps no deadline (P8)")
  func dieSurvivesLoad() async throws { try await suite.dieSurvivesLoad() }

  @Test("P3: a fire by id evaluates the event against the new state, no overwrite")
  func fireByIDSeesTheNewState() async throws { try await suite.fireByIDSeesTheNewState() }

  @Test("P4: a stale object gets a conflict, nothing written; retry reloads")
  func staleObjectConflicts() async throws { try await suite.staleObjectConflicts() }

  @Test("P2, P3, P4: concurrent fires by id and on stale objects keep the ledger exact")
  func concurrentFiresKeepTheLedger() async throws { try await suite.concurrentFiresKeepTheLedger() }

  @Test("P5: after callbacks and observers run once after the commit, never for a rejection")
  func afterCallbacksRunOnceAfterCommit() async throws { try await suite.afterCallbacksRunOnceAfterCommit() }

  @Test("P5: a throwing entry action rolls the step back; after never runs; the object is unchanged")
  func throwingEntryActionRollsBack() async throws { try await suite.throwingEntryActionRollsBack() }

  @Test("P6: a request id replays the recorded outcome and writes nothing")
  func requestIDIsIdempotent() async throws { try await suite.requestIDIsIdempotent() }

  @Test("P12: an unknown stored state is neither loaded nor fired; verify reports it")
  func unknownStoredStateIsRefused() async throws { try await suite.unknownStoredStateIsRefused() }

  @Test("P8, P12: restore repairs a row without callbacks and re-arms its deadlines")
  func restoreRepairs() async throws { try await suite.restoreRepairs() }

  @Test("names compare by canonical equivalence in fires, restores and scopes; rows keep the declared spelling")
  func canonicalNames() async throws { try await suite.canonicalNames() }

  @Test("P14: scopes match descendants and page")
  func scopes() async throws { try await suite.scopes() }

  @Test("P8: deadlines are armed on entry, deleted on exit, re-armed by a self-transition")
  func deadlinesFollowTheConfiguration() async throws { try await suite.deadlinesFollowTheConfiguration() }

  @Test("P9, P10, P15: a due deadline fires once on the store's clock")
  func dueDeadlineFiresOnce() async throws { try await suite.dueDeadlineFiresOnce() }

  @Test("P10: concurrent scheduler passes fire each deadline exactly once")
  func concurrentSchedulersFireEachDeadlineOnce() async throws { try await suite.concurrentSchedulersFireEachDeadlineOnce() }

  @Test("P8: a posted event is a deadline of no state, fired once")
  func postedEventFiresOnce() async throws { try await suite.postedEventFiresOnce() }

  @Test("P11: a deadline whose guards are false is consumed")
  func deadlineWithFalseGuardsIsConsumed() async throws { try await suite.deadlineWithFalseGuardsIsConsumed() }

  @Test("P16: outbox messages are written with their step and delivered at least once")
  func outboxDeliversAtLeastOnce() async throws { try await suite.outboxDeliversAtLeastOnce() }
}
#endif
