import MallocCounter

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One measured case: a function that runs `events` events and returns how many gave the
/// expected result (every one of them, or the run is invalid).
struct BenchmarkCase {
  /// The row number, as in the README and for `--only`.
  let id: String
  /// What the row measures.
  let name: String
  /// Runs the events.
  let run: (Int) -> Int
}

/// The outcome of measuring one case.
struct Measurement {
  let id: String
  let name: String
  /// CPU nanoseconds per event of each repetition, in the order of the rounds.
  let rounds: [Double]
  /// Wall-clock nanoseconds per event of each repetition, in the order of the rounds.
  let wallRounds: [Double]
  /// Heap allocations per event, counted over one extra run (`nil` where they cannot be counted).
  let mallocsPerEvent: Double?

  var median: Double { Self.median(rounds) }
  var fastest: Double { rounds.min()! }
  var slowest: Double { rounds.max()! }
  var wallMedian: Double { Self.median(wallRounds) }

  /// The median over the rounds of this case's time divided by `baseline`'s time in the same
  /// round. The machine's speed drifts (frequency scaling, neighbours on a shared host); within
  /// one round both cases ran a few milliseconds apart, so each round's ratio cancels most of the
  /// drift that a ratio of two medians would keep.
  func ratio(to baseline: Measurement) -> Double {
    Self.median(zip(rounds, baseline.rounds).map { $0 / $1 })
  }

  private static func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }
}

/// Keeps a value alive as far as the optimiser can tell.
@inline(never)
func blackhole(_ value: Int, into checksum: inout Int) {
  checksum = checksum &* 31 &+ value
}

/// Times the cases: one warm-up run each, then `repetitions` rounds in which every case runs once
/// (round-robin, so slow drift of the machine affects all cases alike). Stops the process if a
/// case does not give the expected result for every event.
func measure(
  _ cases: [BenchmarkCase], events: Int, repetitions: Int, checksum: inout Int
) -> [Measurement] {
  let clock = ContinuousClock()
  for benchmark in cases {
    let warmUpEvents = max(2, events / 10 / 2 * 2)
    check(benchmark, benchmark.run(warmUpEvents), expected: warmUpEvents)
  }
  // Allocations per event: the difference between a run of 2n and a run of n events, so that what
  // a run allocates once (the object) cancels out.
  let mallocs: [Double?] = cases.map { benchmark in
    guard malloc_counter_available() else { return nil }
    let small = max(2, events / 10 / 2 * 2)
    let start = malloc_counter_count()
    _ = benchmark.run(small)
    let middle = malloc_counter_count()
    _ = benchmark.run(small * 2)
    let end = malloc_counter_count()
    let perRun = Double(end - middle) - Double(middle - start)
    return max(0, perRun / Double(small))
  }
  var samples = [[Double]](repeating: [], count: cases.count)
  var wallSamples = [[Double]](repeating: [], count: cases.count)
  for _ in 0..<repetitions {
    for (index, benchmark) in cases.enumerated() {
      let start = clock.now
      let cpuStart = threadCPUNanoseconds()
      let result = benchmark.run(events)
      let cpuElapsed = threadCPUNanoseconds() - cpuStart
      let elapsed = clock.now - start
      check(benchmark, result, expected: events)
      blackhole(result, into: &checksum)
      samples[index].append(cpuElapsed / Double(events))
      wallSamples[index].append(nanoseconds(elapsed) / Double(events))
    }
  }
  return cases.indices.map {
    Measurement(
      id: cases[$0].id, name: cases[$0].name, rounds: samples[$0], wallRounds: wallSamples[$0],
      mallocsPerEvent: mallocs[$0])
  }
}

/// Runs each case once with `events` events, checks its result, prints the checksum and ends the
/// process: nothing else runs, so a callgrind count toggled on a case's function sees that one call
/// (`Benchmarks/instruction-counts.sh`).
func runOnce(_ cases: [BenchmarkCase], events: Int) -> Never {
  var checksum = 0
  for benchmark in cases {
    let result = benchmark.run(events)
    check(benchmark, result, expected: events)
    blackhole(result, into: &checksum)
  }
  print("checksum \(checksum)")
  exit(0)
}

private func check(_ benchmark: BenchmarkCase, _ result: Int, expected: Int) {
  precondition(
    result == expected,
    "\(benchmark.name): \(result) of \(expected) events gave the expected result")
}

/// The CPU time this thread has used, in nanoseconds. Unlike the wall clock, it does not count
/// the time the thread waited for a core, so other work on the machine disturbs it less.
func threadCPUNanoseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// A duration in nanoseconds.
func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}
