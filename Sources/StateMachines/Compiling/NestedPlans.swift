/// The nested shape (HIERARCHY.md §6): a statechart without parallel states has one active leaf,
/// so its configuration is that leaf and its ancestors, and each (leaf, event) slot's outcome can
/// be worked out when compiling: for every candidate transition in selection order (S4), the
/// states it exits and enters and the leaf it ends in. A slot whose winning transition runs no
/// code takes the fast tier (a table load and a store, like a flat machine); other plannable slots
/// take ``StateMachineDefinition/nestedStep(_:_:_:_:_:)``, a flat-style step over the precomputed
/// lists; the rest (history, finals, junctions, eventless transitions…) the full statechart step.
@usableFromInline
struct NestedPlans {
  /// One candidate transition of a slot, planned.
  @usableFromInline
  struct Candidate {
    @usableFromInline let transition: Int32
    /// In exit order (children first).
    @usableFromInline let exits: [Int32]
    /// In entry order (parents first).
    @usableFromInline let entries: [Int32]
    /// The entered compound states whose initial action runs.
    @usableFromInline let defaultEntries: [Int32]
    /// The leaf the machine ends in.
    @usableFromInline let leaf: Int32
    /// `exits` and `entries` without the states that run nothing (no actions, triggers or initial
    /// action): what the step walks when no one is told of each state.
    @usableFromInline var exitsWithCode: [Int32] = []
    @usableFromInline var entriesWithCode: [Int32] = []
  }

  /// Per slot (`event * states + leaf`), where its candidates start and end in `candidates`
  /// (equal: no plan). Dense, like the fast table, so a lookup is two loads.
  @usableFromInline private(set) var starts: [Int32] = []
  @usableFromInline private(set) var ends: [Int32] = []
  @usableFromInline private(set) var candidates: [Candidate] = []

  init() {}

  init(slots: Int) {
    starts = Array(repeating: 0, count: slots)
    ends = Array(repeating: 0, count: slots)
  }

  /// The plan of `slot`, if it has one.
  @inlinable
  func plan(_ slot: Int) -> ArraySlice<Candidate>? {
    guard slot < starts.count, starts[slot] < ends[slot] else { return nil }
    return candidates[Int(starts[slot])..<Int(ends[slot])]
  }

  /// Plans every slot of a nested chart that the plan can serve, and returns the fast-table
  /// value of each slot it plans (a leaf for a transition without code, else `fullStep`).
  /// `runsCode(state)` says whether entering or exiting a state runs anything.
  static func build<Model>(
    _ chart: Statechart<Model>, columnHeight: Int, runsCode: (Int32) -> Bool,
    eventRunsCode: (Int32) -> Bool, fast: inout [Int32], fullStep: Int32
  ) -> NestedPlans {
    var plans = NestedPlans(slots: fast.count)
    guard !chart.hasEventless else { return plans }
    let tree = chart.tree
    for leaf in 0..<Int32(tree.count) where chart.isAtomic(leaf) && tree.kinds[Int(leaf)] != .final {
      // The active states with `leaf` active: it and its ancestors.
      let active = [leaf] + tree.ancestors(of: leaf)
      var byEvent: [Int32: [Int32]] = [:]
      for holder in active + [-1] {
        for index in chart.transitions(from: holder) where chart.transitions[Int(index)].event >= 0 {
          byEvent[chart.transitions[Int(index)].event, default: []].append(index)
        }
      }
      for (event, transitions) in byEvent {
        var planned: [Candidate] = []
        var plannable = true
        for index in transitions {
          let transition = chart.transitions[Int(index)]
          guard var candidate = plan(chart, transition, index, leaf: leaf, active: active) else {
            plannable = false
            break
          }
          candidate.exitsWithCode = candidate.exits.filter(runsCode)
          candidate.entriesWithCode = candidate.entries.filter { state in
            runsCode(state) || (candidate.defaultEntries.contains(state) && chart.initialActions[Int(state)] != nil)
          }
          planned.append(candidate)
          if transition.guardBody == nil { break }
        }
        guard plannable, !planned.isEmpty else { continue }
        let slot = Int(event) * columnHeight + Int(leaf)
        plans.starts[slot] = Int32(plans.candidates.count)
        plans.candidates += planned
        plans.ends[slot] = Int32(plans.candidates.count)
        let only = planned[0]
        let transition = chart.transitions[Int(only.transition)]
        let silent =
          planned.count == 1 && transition.guardBody == nil && transition.action == nil && !eventRunsCode(event)
          && !(only.exits + only.entries).contains(where: runsCode)
          && only.defaultEntries.allSatisfy { chart.initialActions[Int($0)] == nil }
        fast[slot] = silent ? only.leaf : fullStep
      }
    }
    return plans
  }

  /// The plan of one transition from `leaf`, or `nil` if it needs the full step: a history,
  /// junction or join target, a final state entered, a state with history exited, `die`.
  private static func plan<Model>(
    _ chart: Statechart<Model>, _ transition: Statechart<Model>.ChartTransition, _ index: Int32, leaf: Int32,
    active: [Int32]
  ) -> Candidate? {
    let tree = chart.tree
    if transition.terminates { return nil }
    if transition.targets.isEmpty {
      return Candidate(transition: index, exits: [], entries: [], defaultEntries: [], leaf: leaf)
    }
    guard transition.targets.count == 1, case let target = transition.targets[0],
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
      domain = -1
      for ancestor in tree.ancestors(of: source) where chart.isCompound(ancestor) && tree.isDescendant(target, of: ancestor) {
        domain = ancestor
        break
      }
    }
    let exits = active.filter { tree.isDescendant($0, of: domain) }
    // Entries: the target's ancestors below the domain, the target, then its default descendants.
    var entries = (entersTarget ? [target] : []) + tree.ancestors(of: target).filter { tree.isDescendant($0, of: domain) }
    entries.reverse()
    var defaultEntries: [Int32] = []
    var current = target
    while chart.isCompound(current) {
      if entersTarget || current != target { defaultEntries.append(current) }
      let initial = chart.initial[Int(current)]
      guard initial.count == 1 else { return nil }
      let next = initial[0]
      // An initial state deeper than a child enters the states between.
      let between = tree.ancestors(of: next).filter { tree.isDescendant($0, of: current) }.reversed()
      entries += between
      entries.append(next)
      current = next
    }
    guard tree.kinds[Int(current)] == .atomic else { return nil }
    if exits.contains(where: { !chart.historyChildren[Int($0)].isEmpty }) { return nil }
    if entries.contains(where: { tree.kinds[Int($0)] == .final || chart.isParallel($0) }) { return nil }
    return Candidate(transition: index, exits: exits, entries: entries, defaultEntries: defaultEntries, leaf: current)
  }
}
