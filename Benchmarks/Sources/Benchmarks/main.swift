// Micro-benchmark of the StateMachines runtime. See Benchmarks/README.md.
//
//   swift run -c release StateMachinesBenchmarks [events-per-repetition] [repetitions] [--only ID,ID…] [--once]

import StateMachines

var numbers: [Int] = []
var only: Set<String>?
/// `--once`: each selected row runs once, without warm-up or anything else (for instruction-counts.sh).
var once = false
var argumentIterator = CommandLine.arguments.dropFirst().makeIterator()
while let argument = argumentIterator.next() {
  if argument == "--only", let ids = argumentIterator.next() {
    only = Set(ids.split(separator: ",").map(String.init))
  } else if argument == "--once" {
    once = true
  } else if let number = Int(argument) {
    numbers.append(number)
  } else {
    fatalError("usage: StateMachinesBenchmarks [events-per-repetition] [repetitions] [--only ID,ID…] [--once]")
  }
}
let events = max(2, (numbers.first ?? 1_000_000) / 2 * 2)
let repetitions = max(1, numbers.dropFirst().first ?? 25)

let allCases = [
  BenchmarkCase(id: "1", name: "generated methods, Subscription (suspend/unsuspend)", run: generatedCycle),
  BenchmarkCase(id: "1b", name: "generated methods, plain machine (no callbacks)", run: generatedPlainCycle),
  BenchmarkCase(id: "1c", name: "row 1, each event method called out of line (as from an app)", run: calledCycle),
  BenchmarkCase(id: "1s", name: "row 1 on a Sendable class (lock + busy mark)", run: sendableCycle),
  BenchmarkCase(id: "1bs", name: "row 1b on a Sendable class (lock)", run: sendablePlainCycle),
  BenchmarkCase(id: "2", name: "fire(\"suspend\")/fire(\"unsuspend\") by name", run: stringCycle),
  BenchmarkCase(id: "3", name: "rejected event: activate() while active", run: rejectedEvent),
  BenchmarkCase(id: "4", name: "canSuspend (suspend has a callback)", run: canSuspendQuery),
  BenchmarkCase(id: "4b", name: "canSuspend, plain machine", run: canSuspendPlainQuery),
  BenchmarkCase(id: "5", name: "baseline: hand-written enum + switch", run: handWrittenCycle),
  BenchmarkCase(id: "5l", name: "baseline: lean enum + switch, another module, same callback", run: leanEnumCycle),
  BenchmarkCase(id: "5b", name: "baseline: hand-written canSuspend", run: handWrittenCanSuspend),
  BenchmarkCase(id: "d1", name: "row 1, events as data dispatched by a switch", run: dataCycle),
  BenchmarkCase(id: "d5l", name: "baseline: row 5l, events as data dispatched by a switch", run: dataLeanEnumCycle),
  BenchmarkCase(id: "d1e", name: "row d1 with the callback as an entry action", run: dataEntryActionCycle),
  BenchmarkCase(id: "6", name: "baseline: [String: [String: String]] lookup", run: dictionaryCycle),
  BenchmarkCase(id: "7", name: "light path: 1 before + 1 after callback", run: callbackCycle),
  BenchmarkCase(id: "7f", name: "full step: row 7's callbacks taking the Transition", run: fullStepCycle),
  BenchmarkCase(id: "8", name: "accepted event, passing guard", run: guardedCycle),
  BenchmarkCase(id: "9", name: "an exit and an entry action (plain: the light tier)", run: entryExitCycle),
  BenchmarkCase(id: "9f", name: "full step: row 9's actions taking the Transition", run: transitionEntryExitCycle),
  BenchmarkCase(id: "n1", name: "nested: leaf to leaf across the root, no code (fast tier)", run: nestedPlainCycle),
  BenchmarkCase(id: "n2", name: "nested: leaf to leaf, an exit and an entry action", run: nestedEntryExitCycle),
  BenchmarkCase(id: "n3", name: "parallel: one event handled in both of 2 regions", run: parallelCycle),
  BenchmarkCase(id: "h1", name: "history chart: leaf to leaf across the root, by name", run: historyLeafCycle),
  BenchmarkCase(id: "h2", name: "history chart: leave, return through deep history, by name", run: deepHistoryCycle),
]
// The events of rows d1, d5l and d1e, made before any row runs.
prepareSubscriptionEvents(events)
if once {
  // One call of each selected row's function with exactly `events` events, then exit: the region
  // that instruction-counts.sh counts under callgrind.
  runOnce(allCases.filter { only == nil || only!.contains($0.id) }, events: events)
}
// The enum baseline always runs: every ratio is taken to it.
let cases = allCases.filter { only == nil || only!.contains($0.id) || $0.id == "5" }

print("StateMachines benchmark: \(repetitions) repetitions x \(events) events per case")
let clock = ContinuousClock()
let start = clock.now
var checksum = 0
let measurements = measure(cases, events: events, repetitions: repetitions, checksum: &checksum)
let byID = Dictionary(uniqueKeysWithValues: zip(cases.map(\.id), measurements))
let enumBaseline = byID["5"]!

print()
printTable(measurements, baseline: enumBaseline)
print()

/// Prints a target on the ratio of row `id` to row `baselineID`, if both ran.
func target(_ description: String, _ id: String, over baselineID: String, limit: Double) {
  guard let row = byID[id], let baseline = byID[baselineID] else { return }
  printTarget(
    description, ratio: row.ratio(to: baseline), limit: limit,
    detail: "\(format(row.median)) ns vs \(format(baseline.median)) ns")
}

target("after-callback cycle (1) <= 1.5x the lean cross-module enum (5l)", "1", over: "5l", limit: 1.5)
target("generated event method (1) <= 2x the hand-written enum (5)", "1", over: "5", limit: 2)
target("events as data: generated methods (d1) <= 1.5x the lean enum (d5l)", "d1", over: "d5l", limit: 1.5)
target("events as data: entry action (d1e) <= 3x the after callback (d1)", "d1e", over: "d1", limit: 3)
target("rejected event (3) <= accepted event (1)", "3", over: "1", limit: 1)
target("full step (7f) <= 3x the light path with the same callbacks (7)", "7f", over: "7", limit: 3)
target("fire(\"name\") (2) <= 4x the generated method (1)", "2", over: "1", limit: 4)
target("return through deep history (h2) <= 2x leaf to leaf across the root (h1)", "h2", over: "h1", limit: 2)
target("nested leaf to leaf without code (n1) <= 1.1x the flat fast tier (1b)", "n1", over: "1b", limit: 1.1)
target("nested with entry/exit actions (n2) <= 1.2x the flat full step with the same actions (9)", "n2", over: "9", limit: 1.2)
target("event in both regions of a parallel state (n3) <= 3x the flat full step (9)", "n3", over: "9", limit: 3)
if let sendable = byID["1bs"], let plain = byID["1b"] {
  print(
    "info   Sendable fast path (1bs) - plain fast path (1b): "
      + "\(format(sendable.median - plain.median)) ns per event for the lock")
}
let allocating = measurements.filter { ($0.mallocsPerEvent ?? 0) > 0.001 }
if measurements.first?.mallocsPerEvent == nil {
  print("info   heap allocations per event: not counted on this platform")
} else {
  let verdict = allocating.isEmpty ? "MET   " : "MISSED"
  print(
    "\(verdict) no heap allocation per event on any tier: "
      + (allocating.isEmpty ? "0 in every row" : allocating.map { "(\($0.id)) \(format($0.mallocsPerEvent!))" }.joined(separator: ", ")))
}
let storageBytes = MemoryLayout<StateMachineStorage>.size
print("\(storageBytes <= 16 ? "MET   " : "MISSED") per-object storage <= 16 bytes: \(storageBytes) bytes; a Sendable object stores nothing for its lock (a shared table of 64 locks)")

/// Times the two wide definitions; they are released when it returns, before the memory section.
func measureBuilds() {
  var grid: StateMachineDefinition<DynamicStateMachine>?
  let gridTime = milliseconds { grid = buildGrid(states: 1_000, events: 1_000) }
  var chain: StateMachineDefinition<DynamicStateMachine>?
  let chainTime = milliseconds { chain = buildChain(10_000) }
  var nested: StateMachineDefinition<DynamicStateMachine>?
  let nestedTime = milliseconds { nested = buildNested(states: 1_000) }
  precondition(grid?.definitionError == nil && chain?.definitionError == nil && nested?.definitionError == nil)
  print("\(gridTime < 1_000 ? "MET   " : "MISSED") build 1,000 states x 1,000 events < 1 s: \(format(gridTime, digits: 1)) ms")
  print("\(chainTime < 1_000 ? "MET   " : "MISSED") build a 10,000-state chain < 1 s: \(format(chainTime, digits: 1)) ms")
  print(
    "\(nestedTime < 1_000 ? "MET   " : "MISSED") build a nested definition of \(nested!.states.count) states < 1 s: "
      + "\(format(nestedTime, digits: 1)) ms")
}

if only == nil || only!.contains("build") {
  print()
  measureBuilds()
}

if only == nil || only!.contains("json") {
  print()
  measureJSONLoading()
}

if only == nil || only!.contains("memory") {
  print()
  if let memory = await timeoutMemory(objects: 100_000) {
    let retained = max(0, memory.after - memory.baseline)
    let armedPerObject = Double(memory.armed - memory.baseline) / 100_000
    print(
      "\(retained < 2_000_000 ? "MET   " : "MISSED") 100k objects left a 1-hour timeout state: resident memory "
        + "\(memory.baseline / 1024) KiB before, \(memory.armed / 1024) KiB armed "
        + "(\(format(armedPerObject, digits: 0)) bytes/object), \(memory.after / 1024) KiB one second after "
        + "(\(format(Double(retained) / 100_000, digits: 1)) bytes/object retained)")
  } else {
    print("info   timeout memory: resident memory not readable on this platform")
  }
  if let probe = await invokeMemory(cycles: 100_000) {
    print(
      "\(probe.met ? "MET   " : "MISSED") invoke load/cancel cycles on one object, every task ended: live heap blocks "
        + "+\(probe.liveGrowth.first) over 100k cycles, +\(probe.liveGrowth.second) over 200k more "
        + "(\(format(probe.retainedPerCycle, digits: 4)) blocks/cycle retained, goal: no growth, < 0.001); "
        + "resident memory +\(probe.residentGrowth.first / 1024) KiB, +\(probe.residentGrowth.second / 1024) KiB "
        + "(allocator caching, not judged); \(format(probe.allocationsPerCycle, digits: 1)) allocations/cycle")
  } else {
    print("info   invoke memory: the heap is not readable on this platform")
  }
  if let probe = await invokeMemory(cycles: 100_000, taskSleep: true) {
    print(
      "info   the same, the work in Task.sleep: live heap blocks +\(probe.liveGrowth.first) over 100k cycles, "
        + "+\(probe.liveGrowth.second) over 200k more (\(format(probe.retainedPerCycle, digits: 4)) blocks/cycle "
        + "until the sleeps' deadlines, the runtime's timers)")
  }
}
print()
print("checksum \(checksum), total \(format(nanoseconds(clock.now - start) / 1e9, digits: 1)) s")
