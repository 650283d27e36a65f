// History in the nested shape's plans (S15). With one active leaf, what a step records is known
// when compiling: a deep history records the leaf, a shallow one the leaf's ancestor that is
// its parent's child. What a step enters through a history is not, but it is one of the states
// the history can have recorded; each gets a candidate of its own, chosen when the step runs.

/// What a planned candidate records and enters through.
@usableFromInline
struct HistoryPlan: Sendable {
  /// Pairs (history, recorded state) in the pool: what the step records as it exits their
  /// parents.
  @usableFromInline let records: StepPlans.Span
  /// The history the candidate enters through, or -1. The candidate itself is planned for the
  /// history's default, taken while nothing is recorded.
  @usableFromInline let target: Int32
  /// The states the history can have recorded are `firstRecordable...lastRecordable` (its
  /// parent's descendants). For a record `state`, the slot's candidates are
  /// `alternativeStarts[alternativesBase + state]` and the `width` that follow it (-1: the full
  /// step).
  @usableFromInline let firstRecordable: Int32
  @usableFromInline let lastRecordable: Int32
  @usableFromInline var alternativesBase: Int32 = 0
  @usableFromInline var width: Int32 = 0
}

extension StepPlans {
  /// At most how many states a history's parent may contain for the transitions into it to be
  /// planned, and at most how many alternatives (recordable states, each a copy of its slot's
  /// candidates) all of them may have: beyond, they take the full step rather than grow the
  /// plans by the square of the chart.
  static let maxHistoryDescendants: Int32 = 256
  static let maxHistoryAlternatives = 16_384

  /// The planned candidate of transition `index` from `leaf`, or `nil` if it needs the full step.
  mutating func nestedCandidate<Model>(
    _ chart: Statechart<Model>, transition index: Int32, leaf: Int32, _ scratch: inout NestedScratch, code: Code
  ) -> PlannedCandidate? {
    let targets = chart.transitions[Int(index)].targets
    guard targets.count == 1, case .history = chart.kind(targets[0]) else {
      return nestedCandidate(chart, transition: index, target: nil, leaf: leaf, &scratch, code: code)
    }
    let history = targets[0]
    // A default action, a default that is not one state, or a local transition (whose domain
    // depends on what was recorded): the full step.
    let defaults = chart.historyDefaults[Int(history)]
    guard chart.transitions[Int(index)].kind == .external, chart.historyActions[Int(history)] == nil,
      defaults.count == 1, !chart.isHistory(defaults[0])
    else { return nil }
    let parent = chart.tree.parents[Int(history)]
    // From inside the parent, the step records before it enters: the record it would read is
    // the one it writes. The full step keeps that order.
    guard !chart.tree.isDescendant(leaf, of: parent) else { return nil }
    let first = parent + 1
    let last = chart.tree.lastDescendant[Int(parent)]
    guard last - first < Self.maxHistoryDescendants,
      alternativeStarts.count + Int(last - first + 1) <= Self.maxHistoryAlternatives
    else { return nil }
    // One history per slot: its alternatives are the slot's candidates with this one replaced.
    guard scratch.historyPosition < 0 else { return nil }
    scratch.alternatives.removeAll(keepingCapacity: true)
    for recorded in first...last {
      let recordable =
        if case .history(.deep) = chart.kind(history) {
          chart.isAtomic(recorded)
        } else {
          chart.tree.parents[Int(recorded)] == parent && !chart.kind(recorded).isPseudostate
        }
      scratch.alternatives.append(
        recordable ? nestedCandidate(chart, transition: index, target: recorded, leaf: leaf, &scratch, code: code) : nil)
    }
    scratch.historyPosition = scratch.planned.count
    return nestedCandidate(
      chart, transition: index, target: defaults[0], leaf: leaf, &scratch, code: code, entering: (history, first, last))
  }

  /// Adds the alternatives of the slot just planned (its candidates in `scratch`), if one of
  /// them enters through a history.
  mutating func planHistoryAlternatives(_ scratch: inout NestedScratch) {
    guard scratch.historyPosition >= 0 else { return }
    defer { scratch.historyPosition = -1 }
    let position = scratch.historyPosition
    let historyPlan = Int(scratch.planned[position].historyPlan)
    historyPlans[historyPlan].alternativesBase = Int32(alternativeStarts.count) - historyPlans[historyPlan].firstRecordable
    historyPlans[historyPlan].width = Int32(scratch.planned.count)
    for alternative in scratch.alternatives {
      guard let alternative else {
        alternativeStarts.append(-1)
        continue
      }
      alternativeStarts.append(Int32(candidates.count))
      for (index, planned) in scratch.planned.enumerated() { candidates.append(index == position ? alternative : planned) }
    }
    entersHistory = true
  }

  /// The candidate of transition `index` from `leaf` to `target` (`nil`: its own), with the
  /// histories its exits record and, if it enters through a history, where that history's
  /// alternatives are.
  private mutating func nestedCandidate<Model>(
    _ chart: Statechart<Model>, transition index: Int32, target: Int32?, leaf: Int32, _ scratch: inout NestedScratch,
    code: Code, entering: (history: Int32, first: Int32, last: Int32)? = nil
  ) -> PlannedCandidate? {
    guard let next = Self.nestedStep(chart, transition: index, target: target, leaf: leaf, &scratch) else { return nil }
    // What the exits record: the leaf (deep), or the exited state's child on the leaf's path.
    let recordsStart = Int32(pool.count)
    for exited in scratch.exits {
      for history in chart.historyChildren[Int(exited)] {
        let recorded: Int32
        if case .history(.deep) = chart.kind(history) {
          recorded = leaf
        } else {
          guard let child = scratch.active.first(where: { chart.tree.parents[Int($0)] == exited }) else { continue }
          recorded = child
        }
        if records.isEmpty { records = Array(repeating: [], count: chart.count) }
        if records[Int(recorded)].isEmpty { records[Int(recorded)] = [recorded] }
        pool.append(history)
        pool.append(recorded)
      }
    }
    let recordSpan = Span(start: recordsStart, end: Int32(pool.count))
    var historyPlan: Int32 = -1
    if !recordSpan.isEmpty || entering != nil {
      historyPlan = Int32(historyPlans.count)
      historyPlans.append(
        HistoryPlan(
          records: recordSpan, target: entering?.history ?? -1, firstRecordable: entering?.first ?? 0,
          lastRecordable: entering?.last ?? -1))
    }
    return candidate(
      chart, transitions: CollectionOfOne(index), exits: scratch.exits, entries: scratch.entries,
      defaultEntries: scratch.defaultEntries, next: next, code: code, historyPlan: historyPlan)
  }

  /// The history plan of the candidate of `plan` that enters through a history, if one does.
  @inlinable
  func historyEntered(by plan: Range<Int>) -> HistoryPlan? {
    for index in plan where candidates[index].historyPlan >= 0 {
      let historyPlan = historyPlans[Int(candidates[index].historyPlan)]
      if historyPlan.target >= 0 { return historyPlan }
    }
    return nil
  }

  /// The candidates of a slot planned at `plan` whose history `entered` recorded `record`: the
  /// slot's alternative for the recorded state, or `plan` itself (the history's default) when
  /// nothing is recorded; `nil` if the record has no plan (the full step takes the event).
  @inlinable
  func resolved(_ plan: Range<Int>, _ entered: HistoryPlan, record: [Int32]?) -> Range<Int>? {
    guard let record else { return plan }
    guard record.count == 1, case let recorded = record[0], recorded >= entered.firstRecordable,
      recorded <= entered.lastRecordable
    else { return nil }
    let start = Int(alternativeStarts[Int(entered.alternativesBase + recorded)])
    return start < 0 ? nil : start..<start + Int(entered.width)
  }
}
