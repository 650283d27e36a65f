/// Runs `body` on `actor` and returns its result: how timeouts, invocation results and `send`
/// reach an actor-isolated object without knowing its type.
func runIsolated<T: Sendable>(on actor: isolated any Actor, _ body: @Sendable () -> T) -> T {
  body()
}
