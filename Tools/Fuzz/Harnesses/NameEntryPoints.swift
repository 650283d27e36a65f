// libFuzzer harness: every public entry point that takes a name (Semantics §Names), driven
// with names from the input's bytes on a definition whose names come partly from a pool of
// awkward spellings and partly from the input. Twin machines check that a name equal to a
// declared one (canonical equivalence) behaves as the declared spelling; refused calls must leave
// the state unchanged, and `state` must always be a state of the definition. A violation traps.
//
// Input: four header bytes (see `NameFuzzInput`), then newline-separated records. The first few
// records may name states or events of the definition; each later one is an operation: its
// first byte chooses the call (low four bits) and how the name is made (high bits), the rest is
// the name's bytes (an event and a path are split at a tab).
import Foundation
import StateMachines

/// A definition of another machine: every ID it gives must be refused by the fuzzed one.
private let foreign = StateMachineDefinition<DynamicStateMachine> { sm in
  sm.addState("idle")
  sm.addState("\u{E9}tat")
  sm.when("go", transitionFrom: "idle", to: "\u{E9}tat")
}

/// Definitions already compiled, by the bytes that decide them. Compiling one under
/// AddressSanitizer and coverage takes about a millisecond (a statechart several), far more than
/// the calls; most mutations change only the calls, so a definition is compiled once and shared,
/// as definitions are shared by their machines in an app. Emptied when it reaches 1,024 entries.
/// (A miss allocates more than it frees, so libFuzzer runs that input again to rule out a leak;
/// the second run hits.)
nonisolated(unsafe) private var definitions: [[UInt8]: NameFuzzDefinition] = [:]

private func definition(for input: NameFuzzInput) -> NameFuzzDefinition {
  let key = input.definitionKey
  if let known = definitions[key] { return known }
  if definitions.count >= 1024 { definitions = [:] }
  let made = NameFuzzDefinition(input, FuzzDriver.Setup())
  definitions[key] = made
  return made
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNameEntryPoints(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = NameFuzzInput(UnsafeBufferPointer(start: data, count: size))
  let twins = TwinMachines(definition(for: input), startsMachines: input.startsMachines)
  var jsonLoads = 0
  for record in input.records.dropFirst(input.definitionNameCount) {
    let op = record.first ?? 0
    let payload = record.dropFirst()
    // An event and a path, for the call that takes both.
    let tab = payload.firstIndex(of: 0x09) ?? payload.endIndex
    let name = NameFuzzInput.callName(op >> 4, payload[..<tab], known: twins.fixture.known)
    let second = NameFuzzInput.callName(op >> 4, payload[tab...].dropFirst(), known: twins.fixture.known)
    if op & 0x0F == 14 {
      // Our JSON format, or TBStateMachine's with the op's top bit. One document per input, names of at most 64 scalars: each document is three loads,
      // and the JSON harness covers long strings.
      if jsonLoads < 1 {
        jsonLoads += 1
        let short = [name, twins.declared(second), second.isEmpty ? name : second].map { String($0.unicodeScalars.prefix(64)) }
        NameFuzzJSON.check(state: short[0], other: short[1], event: short[2], tb: op & 0x80 != 0, FuzzDriver.Setup())
      }
      continue
    }
    if NameCalls.tracing {
      print("call \(op & 0x0F): \(TwinMachines.show(name)) as \(TwinMachines.show(twins.declared(name))), \(TwinMachines.show(second))")
    }
    NameCalls.perform(op & 0x0F, name, second, payload.first ?? 0, twins)
  }
  return 0
}

/// One operation on the twins.
enum NameCalls {
  /// `NAMES_FUZZ_TRACE=1` prints each call and its outcome, to read a finding.
  static let tracing = ProcessInfo.processInfo.environment["NAMES_FUZZ_TRACE"] != nil

  static func perform(_ kind: UInt8, _ name: String, _ second: String, _ selector: UInt8, _ twins: TwinMachines) {
    let names = [name, twins.declared(name)]
    let seconds = [second, twins.declared(second)]
    let definition = twins.definition
    // A name that `==` no event of the definition is unknown: every event call refuses it.
    let unknownEvent = !twins.fixture.eventSet.contains(name)
    // In a flat definition, a name that `==` no state is no state.
    let unknownState = twins.fixture.isFlat && !twins.fixture.stateSet.contains(name)
    func refusedIf(_ unknown: Bool, _ outcomes: [CallOutcome], _ call: String) {
      if unknown, !outcomes[0].refused { fatalError("names: \(call) accepted unknown \(TwinMachines.show(name))") }
    }
    switch kind {
    case 0:
      refusedIf(unknownEvent, twins.both { m, i in .answer(m.fire(names[i])) }, "fire")
    case 1:
      refusedIf(unknownEvent, twins.both { m, i in .answer(m.fire(names[i], payload: seconds[i])) }, "fire(_:payload:)")
    case 2:
      refusedIf(unknownEvent, twins.both { m, i in TwinMachines.outcome { try m.fireOrThrow(names[i]) } }, "fireOrThrow")
    case 3:
      refusedIf(unknownEvent, twins.both(changes: false) { m, i in .answer(m.can(names[i])) }, "can")
    case 4:
      refusedIf(unknownState, twins.both(changes: false) { m, i in .answer(m.isInState(names[i])) }, "isInState")
    case 5:
      refusedIf(unknownState, twins.both { m, i in TwinMachines.outcome { try m.restoreState(names[i]) } }, "restoreState")
    case 6:
      twins.subscribe { m, i, body throws(StateMachineError) in try m.subscribeToEntry(at: names[i], body) }
    case 7:
      twins.subscribe { m, i, body throws(StateMachineError) in try m.subscribeToExit(at: names[i], body) }
    case 8:
      twins.subscribe { m, i, body throws(StateMachineError) in
        try m.subscribeToInternalTransition(seconds[i], at: names[i], body)
      }
    case 9:
      refusedIf(unknownEvent, twins.both { m, i in .answer(m.post(names[i])) }, "post")
    case 10:
      refusedIf(unknownEvent, twins.both { m, i in .answer(definition.fire(definition.eventID(names[i]), on: m)) }, "fire(_:on:)")
    case 11:
      refusedIf(unknownEvent, twins.both(changes: false) { m, i in .answer(definition.can(definition.eventID(names[i]), on: m)) }, "can(_:on:)")
    case 12:
      refusedIf(unknownState, twins.both(changes: false) { m, i in .answer(definition.isInState(definition.stateID(names[i]), on: m)) }, "isInState(_:on:)")
    case 13:
      switch selector % 3 {
      case 0: twins.renew()
      case 1: _ = twins.both { m, _ in TwinMachines.outcome { try m.startStateMachine() } }
      default: _ = twins.both { m, _ in TwinMachines.outcome { try m.stopStateMachine() } }
      }
    default:
      // IDs of another definition: refused by every call.
      let outcomes = twins.both { m, i in
        let event = foreign.eventID(names[i])
        let answers = [
          definition.fire(event, on: m), definition.fire(event, payload: nil, on: m), definition.can(event, on: m),
          definition.isInState(foreign.stateID(names[i]), on: m),
        ]
        return .answer(answers.contains(true))
      }
      refusedIf(true, outcomes, "an ID of another definition")
    }
  }
}
