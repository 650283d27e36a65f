/// The oracle's invocation results (Invoke I6, I7, I12): work the differential test completes
/// on command, from outside the machine or from its first callback while it runs.
extension AppendixDOracle {
  /// What the first callback of a run does in the differential test: posts `post` (an external
  /// event, FIFO with results, I12), then releases the work of `generation`, whose result
  /// (`failed`: `error.invoke.*`, else `done.invoke.*`) arrives while the machine is busy.
  struct Hook: Equatable {
    let post: String?
    let generation: UInt64
    let failed: Bool
  }

  /// Appends a callback's line to the trace; the first of a run fires the armed hook.
  func record(_ line: String) {
    trace.append(line)
    guard let hook = armedHook else { return }
    armedHook = nil
    firedHook = hook
    pendingPost = hook.post
  }

  /// Drops the internal queue (step limit, eventless cap): a post made before goes with it, as
  /// the runtime drops every event the run queued.
  func dropQueue() {
    internalQueue.removeAll()
    externalQueue.removeAll()
    pendingPost = nil
  }

  /// After the run's macrostep (internal events, then its invokes, I2, I12): the posted event,
  /// within the same run's step limit, then the released work's result.
  func takePost(_ steps: inout Int) {
    if let post = pendingPost, running {
      pendingPost = nil
      if steps >= Self.maxSteps {
        dropQueue()
      } else {
        steps += 1
        let enabled = selectTransitions(post)
        if !enabled.isEmpty {
          microstep(enabled)
          finishMacrostep(&steps)
          startInvocations()
        }
      }
    }
    pendingPost = nil
    if let hook = firedHook { finishInvocation(hook.generation, failed: hook.failed) }
  }

  /// The result of the work of `generation` reaches the machine (an external event, I6): taken
  /// if that start is still current (not cancelled, its state's entry the same), else dropped
  /// and never offered to a transition (I7).
  func finishInvocation(_ generation: UInt64, failed: Bool) {
    let state = starts[Int(generation) - 1]
    // The work has ended either way: it is no longer running.
    let ended = invocations.firstIndex { $0.generation == generation }.map { invocations.remove(at: $0) }
    guard running, let ended, ended.entry == entries[state, default: 0] else {
      dropped += 1
      return
    }
    delivered += 1
    let event = (failed ? "error.invoke.do-" : "done.invoke.do-") + state
    let enabled = selectTransitions(event)
    guard !enabled.isEmpty else { return }
    microstep(enabled)
    var steps = 1
    finishMacrostep(&steps)
    startInvocations()
  }
}
