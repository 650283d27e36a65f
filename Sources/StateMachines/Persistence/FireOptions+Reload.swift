// P4's reload-and-retry, written once for every store: a fire on a stale object that lost the
// compare-and-set either reports the conflict or, with `retry: .reload(max:)`, runs again on the
// row as it now is.

extension FireOptions {
  /// Runs `attempt` with the caller's `object` and the version it was loaded at; when the attempt
  /// fails with ``StateMachineStoreError/conflict(id:expectedVersion:currentVersion:currentState:)``
  /// and ``retry`` is ``Retry/reload(max:)``, runs it again, up to `max` more times, with no object
  /// (the store loads the row afresh) and the row's current version (P4). Any other error, or the
  /// conflict once the retries are spent, is thrown.
  package func reloadingOnConflict<Object, Value>(
    expected: Int64?, object: Object?,
    _ attempt: (_ expected: Int64?, _ object: Object?) async throws(StateMachineStoreError) -> Value
  ) async throws(StateMachineStoreError) -> Value {
    var expected = expected
    var object = object
    var retries = 0
    while true {
      do {
        return try await attempt(expected, object)
      } catch {
        guard case .conflict(_, _, let current, _) = error, case .reload(let max) = retry, retries < max
        else { throw error }
        retries += 1
        expected = current
        object = nil
      }
    }
  }
}
