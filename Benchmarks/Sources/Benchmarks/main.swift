// Micro-benchmark of the StateMachines runtime. See Benchmarks/README.md.
//
//   swift run -c release StateMachinesBenchmarks [events-per-repetition] [repetitions] [--only ID,ID…]

var numbers: [Int] = []
var only: Set<String>?
var argumentIterator = CommandLine.arguments.dropFirst().makeIterator()
while let argument = argumentIterator.next() {
  if argument == "--only", let ids = argumentIterator.next() {
    only = Set(ids.split(separator: ",").map(String.init))
  } else if let number = Int(argument) {
    numbers.append(number)
  } else {
    fatalError("usage: StateMachinesBenchmarks [events-per-repetition] [repetitions] [--only ID,ID…]")
  }
}
let events = max(2, (numbers.first ?? 1_000_000) / 2 * 2)
let repetitions = max(1, numbers.dropFirst().first ?? 25)

let allCases = [
  BenchmarkCase(id: "1", name: "generated methods, Subscription (suspend/unsuspend)", run: generatedCycle),
  BenchmarkCase(id: "1b", name: "generated methods, plain machine (no callbacks)", run: generatedPlainCycle),
  BenchmarkCase(id: "2", name: "fire(\"suspend\")/fire(\"unsuspend\") by name", run: stringCycle),
  BenchmarkCase(id: "3", name: "rejected event: activate() while active", run: rejectedEvent),
  BenchmarkCase(id: "4", name: "canSuspend (suspend has a callback)", run: canSuspendQuery),
  BenchmarkCase(id: "4b", name: "canSuspend, plain machine", run: canSuspendPlainQuery),
  BenchmarkCase(id: "5", name: "baseline: hand-written enum + switch", run: handWrittenCycle),
  BenchmarkCase(id: "5b", name: "baseline: hand-written canSuspend", run: handWrittenCanSuspend),
  BenchmarkCase(id: "6", name: "baseline: [String: [String: String]] lookup", run: dictionaryCycle),
  BenchmarkCase(id: "7", name: "accepted event, 1 before + 1 after callback", run: callbackCycle),
  BenchmarkCase(id: "8", name: "accepted event, passing guard", run: guardedCycle),
]
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
if let generated = byID["1"] {
  printTarget(
    "generated event method <= 2x enum baseline", ratio: generated.ratio(to: enumBaseline), limit: 2,
    detail: "\(format(generated.median)) ns vs \(format(enumBaseline.median)) ns")
  if let rejected = byID["3"] {
    printTarget(
      "rejected event <= accepted event (1)", ratio: rejected.ratio(to: generated), limit: 1,
      detail: "\(format(rejected.median)) ns vs \(format(generated.median)) ns")
  }
}
if let rejected = byID["3"], let plain = byID["1b"] {
  // Not a target: both take a handful of instructions, and their difference is within the noise.
  print(
    "info   rejected event vs accepted fast-path event (1b): \(format(rejected.ratio(to: plain)))x "
      + "(medians \(format(rejected.median)) ns vs \(format(plain.median)) ns)")
}
print()
print("checksum \(checksum), total \(format(nanoseconds(clock.now - start) / 1e9, digits: 1)) s")
