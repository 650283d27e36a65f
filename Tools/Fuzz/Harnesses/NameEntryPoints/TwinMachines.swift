// Two machines of one definition driven in lockstep by the names harness: one gets each name as
// the input spells it, the other the declared spelling that `==` it (Semantics §Names). Every
// call must answer the same on both, and the invariants of bad input must hold after each.
import Foundation
import StateMachines

/// What one call answered, compared between the twins.
enum CallOutcome: Equatable {
  case answer(Bool)
  case succeeded
  case failed(String)

  /// The error's case, without its payload (which quotes the name as the caller spelled it).
  init(_ error: StateMachineError) {
    self = .failed(Mirror(reflecting: error).children.first?.label ?? "\(error)")
  }

  /// Whether the call was refused: then the state must not have changed.
  var refused: Bool { self == .answer(false) || { if case .failed = self { true } else { false } }() }
}

/// Counts of subscription callbacks, per twin and subscription.
final class SubscriptionCounts {
  var values: [[Int]] = [[], []]
}

final class TwinMachines {
  let fixture: NameFuzzDefinition
  private(set) var machines: [DynamicStateMachine] = []
  /// Each twin's state after the last call (or, for a new twin, after its start): reading the
  /// state would start a machine that is not started.
  private var lastStates: [String] = []
  private var subscriptions: [StateMachineSubscription] = []
  private var counts = SubscriptionCounts()
  /// Reads back a statechart's `state` strings.
  private let scratch: DynamicStateMachine
  /// The configurations it read back, by bytes.
  private var verified: [String] = []
  /// The `state` of a machine right after its start.
  let initialState: String
  let startsMachines: Bool

  init(_ fixture: NameFuzzDefinition, startsMachines: Bool) {
    self.fixture = fixture
    self.startsMachines = startsMachines
    if NameCalls.tracing {
      print("definition: \(fixture.states.map(Self.show)), error: \(fixture.definition.definitionError.map { "\($0)" } ?? "none")")
    }
    scratch = DynamicStateMachine(fixture.definition)
    initialState = scratch.state
    renew()
  }

  var definition: StateMachineDefinition<DynamicStateMachine> { fixture.definition }

  /// New twins, not started unless the input says so; earlier subscriptions end.
  func renew() {
    machines = [DynamicStateMachine(definition), DynamicStateMachine(definition)]
    lastStates = [initialState, initialState]
    subscriptions = []
    counts = SubscriptionCounts()
    if startsMachines { _ = both { machine, _ in Self.outcome { try machine.startStateMachine() } } }
  }

  /// The declared spelling of `name`: the first known name that `==` it, else `name` itself.
  func declared(_ name: String) -> String { fixture.declaredSpelling[name] ?? name }

  /// Runs `call` on each twin, the first with `name` as given and the second with its declared
  /// spelling; checks that both answered alike, that a refused call (or one that never changes
  /// the state, `changes` false) left the state as it was, that the states are the same bytes,
  /// and that each is a state of the definition.
  func both(changes: Bool = true, _ call: (DynamicStateMachine, Int) -> CallOutcome) -> [CallOutcome] {
    var outcomes: [CallOutcome] = []
    var states: [String] = []
    for index in 0..<2 {
      let machine = machines[index]
      let before = lastStates[index]
      let outcome = call(machine, index)
      let after = machine.state
      lastStates[index] = after
      if (!changes || outcome.refused) && !Self.sameBytes(before, after) {
        fatalError("names: \(outcome) changed the state from \(Self.show(before)) to \(Self.show(after))")
      }
      checkIsState(after)
      outcomes.append(outcome)
      states.append(after)
    }
    if NameCalls.tracing { print("  -> \(outcomes), state \(Self.show(states[0]))") }
    if outcomes[0] != outcomes[1] {
      fatalError("names: an equal spelling answered \(outcomes[0]), the declared one \(outcomes[1])")
    }
    if !Self.sameBytes(states[0], states[1]) {
      fatalError("names: an equal spelling left \(Self.show(states[0])), the declared one \(Self.show(states[1]))")
    }
    if counts.values[0] != counts.values[1] {
      fatalError("names: subscription callbacks \(counts.values[0]) for an equal spelling, \(counts.values[1]) declared")
    }
    return outcomes
  }

  /// `state` names a state of the definition: one of `states` (a flat machine, a chart in one
  /// leaf), or a configuration that `restoreState` reads back to the same string.
  func checkIsState(_ state: String) {
    if fixture.states.contains(where: { Self.sameBytes($0, state) }) { return }
    if verified.contains(where: { Self.sameBytes($0, state) }) { return }
    do {
      try scratch.restoreState(state)
    } catch {
      fatalError("names: state \(Self.show(state)) is not a state of the definition: \(error)")
    }
    let readBack = scratch.state
    if !Self.sameBytes(readBack, state) {
      fatalError("names: state \(Self.show(state)) reads back as \(Self.show(readBack))")
    }
    verified.append(state)
  }

  /// Subscribes through `subscribe`; a subscription's callbacks are counted per twin. At most
  /// eight are kept: the others end at once, when their token goes away.
  func subscribe(
    _ subscribe: (DynamicStateMachine, Int, @escaping ((any Sendable)?) -> Void) throws(StateMachineError) -> StateMachineSubscription
  ) {
    let slot = counts.values[0].count
    let counts = counts
    let keep = slot < 8
    // Counted from the start: reading the state after the call may start the machine and enter
    // the subscribed state.
    if keep { counts.values[0].append(0); counts.values[1].append(0) }
    _ = both(changes: false) { machine, index in
      Self.outcome {
        let token = try subscribe(machine, index) { _ in
          guard slot < counts.values[index].count else { fatalError("names: a dropped subscription was called") }
          counts.values[index][slot] += 1
        }
        if keep { subscriptions.append(token) }
      }
    }
  }

  static func outcome(_ body: () throws -> Void) -> CallOutcome {
    do {
      try body()
      return .succeeded
    } catch let error as StateMachineError {
      return CallOutcome(error)
    } catch {
      fatalError("names: an entry point threw \(error), not a StateMachineError")
    }
  }

  static func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

  /// A name with its scalars, for a failure message (controls escaped: a NUL would end it).
  static func show(_ name: String) -> String {
    let text = name.unicodeScalars.prefix(64).map { $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
    return "\"\(text.joined())\" [\(name.unicodeScalars.prefix(16).map { String($0.value, radix: 16) }.joined(separator: " "))]"
  }
}
