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

  /// Events per second.
  var tps: Double { Double(measured) / seconds }
}

/// Runs `fire` in `clients` concurrent tasks (task `i` on its own row) for `warmup`, then for
/// `duration`; an event counts when it finishes inside the measured time.
func closedLoop(clients: Int, warmup: Duration, duration: Duration, _ fire: @escaping PostgresEvent) async throws
  -> PostgresLoadResult
{
  let clock = ContinuousClock()
  let measureFrom = clock.now + warmup
  let end = measureFrom + duration
  return try await withThrowingTaskGroup(of: (fired: Int, latencies: [Double]).self) { group in
    for task in 0..<clients {
      group.addTask {
        var fired = 0
        var latencies: [Double] = []
        while clock.now < end {
          let start = clock.now
          try await fire(task)
          let finish = clock.now
          fired += 1
          if finish >= measureFrom && finish <= end { latencies.append(milliseconds(finish - start)) }
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
    return PostgresLoadResult(
      measured: latencies.count, fired: fired, seconds: milliseconds(duration) / 1000, latencies: latencies)
  }
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
