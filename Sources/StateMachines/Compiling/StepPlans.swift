/// Steps worked out when compiling (Hierarchy §6), for the two statechart shapes whose
/// configurations can be numbered:
///
/// - **Nested** (no parallel state): the active leaf is the configuration, so a slot is
///   `(event, leaf)`. For every candidate transition in selection order (S4): the states it exits
///   and enters and the leaf it ends in. A slot whose winning transition runs no code takes the
///   fast tier (a table load and a store, like a flat machine).
/// - **Parallel**, when the chart has at most ``maxConfigurations`` legal configurations (S1):
///   every configuration is numbered and a slot is `(event, configuration)`, planned when its
///   selection runs no guard.
///
/// A planned slot takes `StatechartEngine.plannedStep`, a flat-style
/// step over precomputed lists (in the nested shape history too, `StepPlans+History.swift`); the
/// rest (guards in a parallel state, history in a parallel chart, finals, junctions, joins,
/// eventless transitions…) the full statechart step. Candidates are plain values whose
/// lists are spans of one pool, so reading a plan retains nothing.
@usableFromInline
struct StepPlans: Sendable {
  /// A range of ``pool``.
  @usableFromInline
  struct Span: Sendable {
    @usableFromInline let start: Int32
    @usableFromInline let end: Int32

    @inlinable var isEmpty: Bool { start == end }
  }

  /// One candidate of a slot, planned: its transitions (several in a parallel state, S4), and
  /// what the microstep exits and enters.
  @usableFromInline
  struct PlannedCandidate: Sendable {
    /// Transition indices in document order (S7.3).
    @usableFromInline let transitions: Span
    /// In exit order (children first, later regions first).
    @usableFromInline let exits: Span
    /// In entry order (parents first).
    @usableFromInline let entries: Span
    /// The entered compound states whose initial action runs.
    @usableFromInline let defaultEntries: Span
    /// `transitions`, `exits` and `entries` without the transitions and states that run nothing
    /// (no action; no actions, triggers or initial action): what the step walks when no one is
    /// told of each state or internal transition.
    @usableFromInline let transitionsWithCode: Span
    @usableFromInline let exitsWithCode: Span
    @usableFromInline let entriesWithCode: Span
    /// The configuration the machine ends in: the leaf (nested) or the configuration number.
    @usableFromInline let next: Int32
    /// Whether any of its transitions has a guard: if not, selection takes it without looking.
    @usableFromInline let isGuarded: Bool
    /// Its entry in ``historyPlans`` (histories it records or enters through), or -1.
    @usableFromInline let historyPlan: Int32
  }

  /// The most configurations a parallel chart may have to be numbered.
  static let maxConfigurations = 1_024

  /// Per slot (`event * height + configuration`), where its candidates start and end in
  /// `candidates` (equal: no plan). Dense, like the fast table, so a lookup is two loads.
  @usableFromInline var starts: [Int32] = []
  @usableFromInline var ends: [Int32] = []
  @usableFromInline var candidates: [PlannedCandidate] = []
  @usableFromInline var pool: [Int32] = []
  /// Configurations per event column: the state count (nested) or the configuration count.
  @usableFromInline var height = 0
  /// The parallel shape's numbered configurations, their numbers, and the first leaf of each
  /// (the storage's state index). Empty for the nested shape.
  @usableFromInline var configurations: [StateSet] = []
  @usableFromInline var numbers: [StateSet: Int32] = [:]
  @usableFromInline var firstLeaves: [Int32] = []
  /// The nested shape's history (S15): what candidates record and enter through
  /// (``HistoryPlan``), where a slot's candidates for each recordable state start, and `[state]`
  /// for each recorded state, built once so that a step records by assignment, not allocation.
  @usableFromInline var historyPlans: [HistoryPlan] = []
  @usableFromInline var alternativeStarts: [Int32] = []
  @usableFromInline var records: [[Int32]] = []
  /// Whether any candidate enters through a history: the step then reads the records first.
  @usableFromInline var entersHistory = false

  init() {}

  init(height: Int, events: Int) {
    self.height = height
    starts = Array(repeating: 0, count: height * events)
    ends = starts
  }

  /// The candidates of `event` in configuration `from`, if the slot has a plan.
  @inlinable @inline(__always)
  func plan(event: Int32, from: Int32) -> Range<Int>? {
    let slot = TransitionSlot.position(event: Int(event), state: Int(from), columnHeight: height)
    guard from >= 0, slot < starts.count, starts[slot] < ends[slot] else { return nil }
    return Int(starts[slot])..<Int(ends[slot])
  }

  /// The states or transitions of `span`.
  @inlinable
  func members(_ span: Span) -> ArraySlice<Int32> { pool[Int(span.start)..<Int(span.end)] }

  /// Whether `state` is in `span`.
  @inlinable
  func contains(_ span: Span, _ state: Int32) -> Bool {
    var index = Int(span.start)
    while index < Int(span.end) {
      if pool[index] == state { return true }
      index &+= 1
    }
    return false
  }

  /// What decides whether a slot may skip walking a state or the step: `state(s)` says whether
  /// entering or exiting `s` runs anything, `event(e)` whether `e` has before or after callbacks.
  struct Code {
    let state: (Int32) -> Bool
    let event: (Int32) -> Bool
  }

  // MARK: Building

  mutating func span(_ values: some Collection<Int32>) -> Span {
    let start = Int32(pool.count)
    pool += values
    return Span(start: start, end: Int32(pool.count))
  }

  mutating func candidate<Model>(
    _ chart: Statechart<Model>, transitions: some Collection<Int32>, exits: [Int32], entries: [Int32],
    defaultEntries: [Int32], next: Int32, code: Code, historyPlan: Int32 = -1
  ) -> PlannedCandidate {
    let transitionSpan = span(transitions)
    let exitSpan = span(exits)
    let entrySpan = span(entries)
    let defaultSpan = span(defaultEntries)
    // The lists without the transitions and states that run nothing, appended straight to the pool.
    var start = Int32(pool.count)
    for index in transitions where chart.transitions[Int(index)].action != nil { pool.append(index) }
    let transitionsWithCode = Span(start: start, end: Int32(pool.count))
    start = Int32(pool.count)
    for state in exits where code.state(state) { pool.append(state) }
    let exitsWithCode = Span(start: start, end: Int32(pool.count))
    start = Int32(pool.count)
    for state in entries
    where code.state(state) || (defaultEntries.contains(state) && chart.initialActions[Int(state)] != nil) {
      pool.append(state)
    }
    let entriesWithCode = Span(start: start, end: Int32(pool.count))
    return PlannedCandidate(
      transitions: transitionSpan, exits: exitSpan, entries: entrySpan, defaultEntries: defaultSpan,
      transitionsWithCode: transitionsWithCode, exitsWithCode: exitsWithCode, entriesWithCode: entriesWithCode,
      next: next,
      isGuarded: transitions.contains { chart.transitions[Int($0)].guardBody != nil }, historyPlan: historyPlan)
  }

  mutating func setPlan(_ slot: Int, _ planned: [PlannedCandidate]) {
    starts[slot] = Int32(candidates.count)
    candidates += planned
    ends[slot] = Int32(candidates.count)
  }

  /// The lists one nested slot is planned in, reused from slot to slot: planning a large chart
  /// visits every (leaf, event) slot, and fresh arrays for each would dominate loading it.
  struct NestedScratch {
    /// The active states with the leaf active: it, then its ancestors.
    var active: [Int32] = []
    var exits: [Int32] = []
    var entries: [Int32] = []
    var defaultEntries: [Int32] = []
    var planned: [PlannedCandidate] = []
    /// Per event, the leaf's candidate transitions in selection order (S4); `events` lists the
    /// events with any, so that clearing is proportional to them.
    var byEvent: [[Int32]]
    var events: [Int32] = []
    /// The slot's candidate that enters through a history (-1: none), and its candidate for each
    /// state the history can have recorded (`nil`: the full step).
    var historyPosition = -1
    var alternatives: [PlannedCandidate?] = []
  }

  /// Plans every slot of a nested chart that the plan can serve, and returns the fast-table
  /// value of each slot it plans (a leaf for a transition without code, else the full step).
  static func nested<Model>(
    _ chart: Statechart<Model>, events: Int, code: Code, fast: inout [TransitionSlot]
  ) -> StepPlans {
    var plans = StepPlans(height: chart.count, events: events)
    guard !chart.hasEventless else { return plans }
    let tree = chart.tree
    var scratch = NestedScratch(byEvent: Array(repeating: [], count: events))
    plans.candidates.reserveCapacity(maxNestedCandidates(chart))
    // The planned leaves: atomic states (a final state takes no events).
    for leaf in 0..<Int32(tree.count) where chart.kind(leaf) == .atomic {
      scratch.active.removeAll(keepingCapacity: true)
      var state = leaf
      while state != -1 {
        scratch.active.append(state)
        state = tree.parents[Int(state)]
      }
      // The leaf, its ancestors, then the root (S4's order).
      for position in 0...scratch.active.count {
        let holder = position < scratch.active.count ? scratch.active[position] : -1
        for index in chart.transitions(from: holder) {
          let event = chart.transitions[Int(index)].event
          guard event >= 0 else { continue }
          if scratch.byEvent[Int(event)].isEmpty { scratch.events.append(event) }
          scratch.byEvent[Int(event)].append(index)
        }
      }
      for event in scratch.events {
        scratch.planned.removeAll(keepingCapacity: true)
        var silent = false
        for index in scratch.byEvent[Int(event)] {
          guard let planned = plans.nestedCandidate(chart, transition: index, leaf: leaf, &scratch, code: code) else {
            scratch.planned.removeAll(keepingCapacity: true)
            break
          }
          scratch.planned.append(planned)
          let unguarded = chart.transitions[Int(index)].guardBody == nil
          silent =
            scratch.planned.count == 1 && planned.historyPlan < 0 && unguarded
            && chart.transitions[Int(index)].action == nil
            && !code.event(event) && !scratch.exits.contains(where: code.state)
            && !scratch.entries.contains(where: code.state)
            && scratch.defaultEntries.allSatisfy { chart.initialActions[Int($0)] == nil }
          if unguarded { break }
        }
        scratch.byEvent[Int(event)].removeAll(keepingCapacity: true)
        guard !scratch.planned.isEmpty else {
          scratch.historyPosition = -1
          continue
        }
        let slot = TransitionSlot.position(event: Int(event), state: Int(leaf), columnHeight: chart.count)
        plans.setPlan(slot, scratch.planned)
        plans.planHistoryAlternatives(&scratch)
        fast[slot] = silent ? .fast(scratch.planned[0].next) : .full
      }
      scratch.events.removeAll(keepingCapacity: true)
    }
    // The bound counts slots that take the full step after all (finals, junctions…): a definition
    // does not keep much more room than it uses.
    if plans.candidates.capacity > 2 * plans.candidates.count {
      var fitted: [PlannedCandidate] = []
      fitted.reserveCapacity(plans.candidates.count)
      fitted += plans.candidates
      plans.candidates = fitted
    }
    return plans
  }

  /// At most how many candidates the nested slots have, history alternatives aside (they grow
  /// the array past it): for each planned leaf, the transitions of it, its ancestors and the
  /// root. Reserved at once, since a large chart grew its candidates by copying megabytes.
  private static func maxNestedCandidates<Model>(_ chart: Statechart<Model>) -> Int {
    var total = 0
    for leaf in 0..<Int32(chart.count) where chart.kind(leaf) == .atomic {
      var state = leaf
      while state != -1 {
        total += chart.transitions(from: state).count
        state = chart.tree.parents[Int(state)]
      }
      total += chart.transitions(from: -1).count
    }
    return total
  }

  /// The exits and entries of transition `index` from `leaf` to `target` (its own, or what the
  /// history it targets stands for), left in `scratch`, and the leaf it ends in; or `nil` if it
  /// needs the full step: a pseudostate target, a final state entered, `die`.
  static func nestedStep<Model>(
    _ chart: Statechart<Model>, transition index: Int32, target override: Int32? = nil, leaf: Int32,
    _ scratch: inout NestedScratch
  ) -> Int32? {
    let tree = chart.tree
    scratch.exits.removeAll(keepingCapacity: true)
    scratch.entries.removeAll(keepingCapacity: true)
    scratch.defaultEntries.removeAll(keepingCapacity: true)
    let transition = chart.transitions[Int(index)]
    if transition.terminates { return nil }
    if transition.targets.isEmpty { return leaf }
    guard transition.targets.count == 1, case let target = override ?? transition.targets[0],
      [.atomic, .compound].contains(tree.kinds[Int(target)])
    else { return nil }
    // The domain (S8, S10) with the single active branch.
    let source = transition.source
    var domain: Int32
    var entersTarget = true
    if source == -1 {
      domain = -1
    } else if transition.kind == .local && chart.isCompound(source) && tree.isDescendant(target, of: source) {
      domain = source
    } else if transition.kind == .local && chart.isCompound(target)
      && (target == source || tree.isDescendant(source, of: target))
    {
      domain = target
      entersTarget = false
    } else {
      domain = tree.parents[Int(source)]
      while domain != -1 && !(chart.isCompound(domain) && tree.isDescendant(target, of: domain)) {
        domain = tree.parents[Int(domain)]
      }
    }
    for state in scratch.active where tree.isDescendant(state, of: domain) { scratch.exits.append(state) }
    // Entries: the target's ancestors below the domain, the target, then its default descendants.
    if entersTarget { scratch.entries.append(target) }
    var ancestor = tree.parents[Int(target)]
    while ancestor != -1 && tree.isDescendant(ancestor, of: domain) {
      scratch.entries.append(ancestor)
      ancestor = tree.parents[Int(ancestor)]
    }
    scratch.entries.reverse()
    var current = target
    while chart.isCompound(current) {
      if entersTarget || current != target { scratch.defaultEntries.append(current) }
      let initial = chart.initial[Int(current)]
      guard initial.count == 1 else { return nil }
      let next = initial[0]
      // An initial state deeper than a child enters the states between, parents first.
      let mark = scratch.entries.count
      var between = tree.parents[Int(next)]
      while between != current {
        scratch.entries.append(between)
        between = tree.parents[Int(between)]
      }
      scratch.entries[mark...].reverse()
      scratch.entries.append(next)
      current = next
    }
    guard tree.kinds[Int(current)] == .atomic else { return nil }
    if scratch.entries.contains(where: { tree.kinds[Int($0)] == .final || chart.isParallel($0) }) { return nil }
    return current
  }
}
