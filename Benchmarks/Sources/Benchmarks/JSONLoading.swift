import Foundation
import MallocCounter
import StateMachines

// Loading a definition from JSON (Hierarchy §7): a 10,000-state, 50,000-transition document, timed
// against JSONSerialization parsing the same bytes in the same run.

/// 100 compound states of 99 leaves each (10,000 states); every leaf has 5 transitions (to the
/// next leaves of its group, and one to the first leaf of the next group by path), plus 500 from
/// the compound states: 50,000 transitions.
func largeDefinitionJSON() -> Data {
  var text = #"{"format": "statemachines/1", "states": {"#
  for group in 0..<100 {
    if group > 0 { text += ", " }
    text += #""g\#(group)": {"on": {"#
    text += (0..<5).map { #""reset\#($0)": "g\#(group)l\#($0)""# }.joined(separator: ", ")
    text += #"}, "states": {"#
    for leaf in 0..<99 {
      if leaf > 0 { text += ", " }
      let next = (leaf + 1) % 99
      let after = (leaf + 2) % 99
      text += #""g\#(group)l\#(leaf)": {"on": {"next": "g\#(group)l\#(next)", "skip": "g\#(group)l\#(after)", "#
      text += #""back": "g\#(group)l0", "jump": "g\#((group + 1) % 100)/g\#((group + 1) % 100)l\#(leaf)", "#
      text += #""stay": {"kind": "internal"}}}"#
    }
    text += "}}"
  }
  text += "}}"
  return Data(text.utf8)
}

/// Times both over several rounds; prints the ratio of the medians and the memory per state.
func measureJSONLoading(rounds: Int = 9) {
  let data = largeDefinitionJSON()
  var parseTimes: [Double] = []
  var loadTimes: [Double] = []
  var states = 0
  for _ in 0..<rounds {
    parseTimes.append(milliseconds { _ = try! JSONSerialization.jsonObject(with: data) })
    loadTimes.append(
      milliseconds {
        let definition = try! StateMachineDefinition<DynamicStateMachine>(json: data)
        states = definition.states.count
      })
  }
  let parse = parseTimes.sorted()[rounds / 2]
  let load = loadTimes.sorted()[rounds / 2]
  let ratio = load / parse
  print(
    "\(ratio <= 1.5 ? "MET   " : "MISSED") load a \(states)-state, 50,000-transition JSON definition (\(data.count / 1024) KiB) "
      + "<= 1.5x JSONSerialization parsing the same bytes: \(format(ratio))x (medians \(format(load, digits: 1)) ms vs "
      + "\(format(parse, digits: 1)) ms)")
  // Heap allocations of one load and one parse, when this platform counts them.
  if malloc_counter_available() {
    var start = malloc_counter_count()
    let definition = try! StateMachineDefinition<DynamicStateMachine>(json: data)
    let loadAllocations = malloc_counter_count() - start
    withExtendedLifetime(definition) {}
    start = malloc_counter_count()
    _ = try! JSONSerialization.jsonObject(with: data)
    let parseAllocations = malloc_counter_count() - start
    print(
      "info   loading it makes \(loadAllocations) heap allocations (\(format(Double(loadAllocations) / 60_000, digits: 1)) per "
        + "state or transition); JSONSerialization makes \(parseAllocations)")
  }
  // Memory: resident size with the definition alive, against before loading it.
  malloc_counter_trim()
  if let before = residentBytes() {
    let definition = try! StateMachineDefinition<DynamicStateMachine>(json: data)
    malloc_counter_trim()
    let after = residentBytes() ?? before
    print(
      "info   a loaded definition holds about \(format(Double(after - before) / Double(definition.states.count), digits: 0)) "
        + "bytes per state (resident memory, \(definition.states.count) states and 50,000 transitions)")
    withExtendedLifetime(definition) {}
  }
}
