// The closed loop of the PostgreSQL store benchmark, as pgbench runs its clients: `clients` tasks
// each fire one event, wait for it, and fire the next, for a warm-up then for the measured time.

import Foundation

/// What one case did in one measured run.
struct PostgresLoadResult: Sendable {
  /// Events that finished inside the measured time.
  let measured: Int
  /// Events fired in all, warm-up and the last unfinished ones included (for the checks).
  let fired: Int
  /// The measured time in seconds.
  let seconds: Double
  /// The latency of each measured event in milliseconds.
  let latencies: [Double]
  /// The CPU seconds the server's processes used in the measured time (``postgresServerCPUSeconds()``).
  let serverSeconds: Double?

  /// Events per second.
  var tps: Double { Double(measured) / seconds }
  /// The server's CPU microseconds per measured event.
  var serverMicrosecondsPerEvent: Double? { serverSeconds.map { $0 * 1e6 / Double(max(1, measured)) } }
}

/// Runs `fire` in `clients` concurrent tasks (task `i` on its own row) for `warmup`, then for
/// `duration`; an event counts when it finishes inside the measured time. A call of `fire` is
/// `eventsPerCall` events (a batch by hand), each with the call's latency. The server's CPU time
/// is read when the measured time starts and when it ends.
func closedLoop(
  clients: Int, eventsPerCall: Int = 1, warmup: Duration, duration: Duration, _ fire: @escaping PostgresEvent
) async throws -> PostgresLoadResult {
  let clock = ContinuousClock()
  let measureFrom = clock.now + warmup
  let end = measureFrom + duration
  async let serverSeconds = serverCPUSeconds(from: measureFrom, to: end, clock)
  let (fired, latencies) = try await withThrowingTaskGroup(of: (fired: Int, latencies: [Double]).self) { group in
    for task in 0..<clients {
      group.addTask {
        var fired = 0
        var latencies: [Double] = []
        while clock.now < end {
          let start = clock.now
          try await fire(task)
          let finish = clock.now
          fired += eventsPerCall
          if finish >= measureFrom && finish <= end {
            latencies.append(contentsOf: repeatElement(milliseconds(finish - start), count: eventsPerCall))
          }
        }
        return (fired, latencies)
      }
    }
    var fired = 0
    var latencies: [Double] = []
    for try await result in group {
      fired += result.fired
      latencies += result.latencies
    }
    return (fired, latencies)
  }
  return PostgresLoadResult(
    measured: latencies.count, fired: fired, seconds: milliseconds(duration) / 1000, latencies: latencies,
    serverSeconds: await serverSeconds)
}

/// The server's CPU seconds between two instants, read at each.
private func serverCPUSeconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant, _ clock: ContinuousClock)
  async -> Double?
{
  try? await Task.sleep(until: start, clock: clock)
  let before = postgresServerCPUSeconds()
  try? await Task.sleep(until: end, clock: clock)
  guard let before, let after = postgresServerCPUSeconds() else { return nil }
  return after - before
}

/// A duration in milliseconds.
func milliseconds(_ duration: Duration) -> Double {
  let parts = duration.components
  return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
}

/// The value below which `fraction` of the sorted `values` lie.
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}
