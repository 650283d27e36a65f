// The parallel shape of the step plans (Hierarchy §6): legal configurations numbered, and
// the (event, configuration) slots whose selection runs no guard planned with the full step's
// own procedures.

extension StepPlans {
  /// Numbers the legal configurations of a parallel chart (at most ``maxConfigurations``) and
  /// plans each (event, configuration) slot whose selection runs no guard, with the same
  /// procedures the full step uses (S4, S6, S8, S9).
  static func parallel<Model>(_ chart: Statechart<Model>, events: Int, code: Code) -> StepPlans {
    guard !chart.hasEventless, !chart.tree.kinds.contains(.join),
      let configurations = legalConfigurations(chart, within: -1)
    else { return StepPlans() }
    var plans = StepPlans(height: configurations.count, events: events)
    plans.configurations = configurations
    for (number, configuration) in configurations.enumerated() {
      plans.numbers[configuration] = Int32(number)
      plans.firstLeaves.append(configuration.first { chart.isAtomic($0) } ?? 0)
    }
    for (number, configuration) in configurations.enumerated() {
      for event in 0..<Int32(events) {
        guard let step = parallelStep(chart, event: event, configuration),
          let next = plans.numbers[step.next]
        else { continue }
        let planned = plans.candidate(
          chart, transitions: step.transitions, exits: step.exits, entries: step.entries,
          defaultEntries: step.defaultEntries, next: next, code: code)
        plans.setPlan(Int(event) * configurations.count + number, [planned])
      }
    }
    return plans
  }

  /// The transitions `event` takes in `configuration` and what they exit and enter, or `nil` if
  /// none is taken or the full step is needed (a guard, a pseudostate target, `die`, history
  /// recorded, a final state entered).
  static func parallelStep<Model>(_ chart: Statechart<Model>, event: Int32, _ configuration: StateSet) -> (
    transitions: [Int32], exits: [Int32], entries: [Int32], defaultEntries: [Int32], next: StateSet
  )? {
    var enabled: [(index: Int32, selected: Statechart<Model>.SelectedTransition)] = []
    for atomic in configuration where chart.isAtomic(atomic) {
      var holder = atomic
      search: while true {
        for index in chart.transitions(from: holder) where chart.transitions[Int(index)].event == event {
          let transition = chart.transitions[Int(index)]
          if transition.guardBody != nil || transition.terminates { return nil }
          if transition.targets.contains(where: { chart.tree.kinds[Int($0)].isPseudostate }) { return nil }
          if !enabled.contains(where: { $0.index == index }) {
            enabled.append(
              (index, .init(source: transition.source, targets: transition.targets, kind: transition.kind, actions: [])))
          }
          break search
        }
        if holder == -1 { break }
        holder = chart.tree.parents[Int(holder)]
      }
    }
    var record = ChartConfiguration(capacity: chart.count)
    record.active = configuration
    // Conflicts (S6) keep a subsequence, so the kept transitions' indices are found in order.
    let kept = chart.removeConflictingTransitions(enabled.map { $0.selected }, record)
    guard !kept.isEmpty else { return nil }
    var transitions: [Int32] = []
    var remaining = kept[...]
    for (index, selected) in enabled
    where remaining.first.map({ $0.source == selected.source && $0.targets == selected.targets }) ?? false {
      transitions.append(index)
      remaining = remaining.dropFirst()
    }
    let exits = chart.computeExitSet(kept, record)
    if exits.contains(where: { !chart.historyChildren[Int($0)].isEmpty }) { return nil }
    let entry = chart.computeEntrySet(kept, [:])
    if entry.states.contains(where: { chart.kind($0) == .final }) || !entry.historyDefaults.isEmpty { return nil }
    var next = configuration
    next.subtract(exits)
    next.formUnion(entry.states)
    return (transitions, exits.members.reversed(), entry.states.members, entry.defaultEntry.members, next)
  }

  /// The legal configurations (S1) of the states under `parent` (the root: -1), in document
  /// order, or `nil` past ``maxConfigurations``.
  static func legalConfigurations<Model>(_ chart: Statechart<Model>, within parent: Int32) -> [StateSet]? {
    let empty = StateSet(capacity: chart.count)
    func of(_ state: Int32) -> [StateSet]? {
      var result: [StateSet] = []
      switch chart.kind(state) {
      case .compound:
        for child in chart.tree.stateChildren(of: state) {
          guard let nested = of(child) else { return nil }
          result += nested
          if result.count > maxConfigurations { return nil }
        }
      case .parallel:
        result = [empty]
        for region in chart.tree.stateChildren(of: state) {
          guard let nested = of(region), result.count * nested.count <= maxConfigurations else { return nil }
          result = result.flatMap { partial in
            nested.map { configuration in
              var union = partial
              union.formUnion(configuration)
              return union
            }
          }
        }
      default:
        result = [empty]
      }
      for index in result.indices { result[index].insert(state) }
      return result
    }
    var result: [StateSet] = []
    for child in chart.tree.stateChildren(of: parent) {
      guard let nested = of(child) else { return nil }
      result += nested
      if result.count > maxConfigurations { return nil }
    }
    return result
  }
}
