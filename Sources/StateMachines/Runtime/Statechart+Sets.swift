// The pure part of SCXML Appendix D (Hierarchy §2): conflicts, transition domains, exit and
// entry sets. They read the chart and a configuration only, so compiling can plan a step with them
// and the runtime can take it.

extension Statechart {
  /// A transition chosen by selection, with its junction path and join resolved (S5, S17).
  @usableFromInline
  struct SelectedTransition {
    /// The declaring state; -1 for a wildcard or the machine's initial transition.
    @usableFromInline let source: Int32
    /// The targets after a junction's path was chosen or a join completed; empty: targetless.
    @usableFromInline let targets: [Int32]
    @usableFromInline let kind: TransitionKind
    /// The transition's action, then the junction path's (S17c).
    @usableFromInline let actions: [MachineCallback<Model>]
    /// The sources of a completed join, which its domain covers too (S17b).
    @usableFromInline var joinSources: [Int32]
    /// A join arrival to record: (join, source).
    @usableFromInline var arrival: (join: Int32, source: Int32)?
    /// A join that completes: its arrivals clear.
    @usableFromInline var completedJoin: Int32
    @usableFromInline var terminates: Bool
    /// The declared transition (its index in ``Statechart/transitions``), which inspection
    /// records name; -1 for the machine's initial transition.
    @usableFromInline var index: Int32
    /// The junction path chosen (its position in the junction's paths), which inspection records
    /// name too; -1 when the transition does not target a junction.
    @usableFromInline var junctionPath: Int32 = -1

    @usableFromInline
    init(
      source: Int32, targets: [Int32], kind: TransitionKind, actions: [MachineCallback<Model>], joinSources: [Int32] = [],
      arrival: (join: Int32, source: Int32)? = nil, completedJoin: Int32 = -1, terminates: Bool = false,
      index: Int32 = -1
    ) {
      self.index = index
      self.source = source
      self.targets = targets
      self.kind = kind
      self.actions = actions
      self.joinSources = joinSources
      self.arrival = arrival
      self.completedJoin = completedJoin
      self.terminates = terminates
    }
  }

  /// What one microstep entered, for the callbacks that follow.
  @usableFromInline
  struct EntrySet {
    @usableFromInline var states: StateSet
    /// Compound states entered by default: their initial action runs (S7.5).
    @usableFromInline var defaultEntry: StateSet
    /// Per parent, the history pseudostate whose defaults were entered: its action runs.
    @usableFromInline var historyDefaults: [Int32: Int32] = [:]

    @usableFromInline
    init(states: StateSet, defaultEntry: StateSet) {
      self.states = states
      self.defaultEntry = defaultEntry
    }
  }


  /// SCXML D `removeConflictingTransitions` (S6): of two transitions whose exit sets intersect,
  /// the one whose source is a descendant of the other's wins; otherwise the earlier one.
  @inlinable
  func removeConflictingTransitions(
    _ enabled: [SelectedTransition], _ configuration: ChartConfiguration
  ) -> [SelectedTransition] {
    guard enabled.count > 1 else { return enabled }
    var kept: [(transition: SelectedTransition, exits: StateSet)] = []
    for candidate in enabled {
      let exits = computeExitSet([candidate], configuration)
      var preempted = false
      var replaced: [Int] = []
      for (position, other) in kept.enumerated() where exits.intersects(other.exits) {
        if tree.isDescendant(candidate.source, of: other.transition.source) {
          replaced.append(position)
        } else {
          preempted = true
          break
        }
      }
      if !preempted {
        for position in replaced.reversed() { kept.remove(at: position) }
        kept.append((candidate, exits))
      }
    }
    return kept.map { $0.transition }
  }

  // MARK: Exit and entry sets (S8, S9, S10)

  /// SCXML D `getEffectiveTargetStates`: history pseudostates replaced by what they recorded, or
  /// by their defaults.
  @inlinable
  func effectiveTargets(_ targets: [Int32], _ history: [Int32: [Int32]]) -> [Int32] {
    if !targets.contains(where: { isHistory($0) }) { return targets }
    var result: [Int32] = []
    for target in targets {
      if isHistory(target) {
        let next = history[target] ?? effectiveTargets(historyDefaults[Int(target)], history)
        for state in next where !result.contains(state) { result.append(state) }
      } else if !result.contains(target) {
        result.append(target)
      }
    }
    return result
  }

  /// Whether `transition` is a `.local` transition to its source or an ancestor (S10b): that
  /// state stays, its active descendants are exited and its defaults entered.
  @inlinable
  func isLocalToAncestor(_ transition: SelectedTransition) -> Bool {
    guard transition.kind == .local, transition.source >= 0, transition.targets.count == 1 else { return false }
    let target = transition.targets[0]
    return isCompound(target) && (target == transition.source || tree.isDescendant(transition.source, of: target))
  }

  /// SCXML D `getTransitionDomain` (S8, S10): `nil` for a targetless transition, -1 for the root.
  @inlinable
  func transitionDomain(_ transition: SelectedTransition, _ history: [Int32: [Int32]]) -> Int32? {
    let targets = effectiveTargets(transition.targets, history)
    if targets.isEmpty { return nil }
    let source = transition.source
    if source == -1 { return -1 }
    if transition.kind == .local {
      if isCompound(source) && targets.allSatisfy({ tree.isDescendant($0, of: source) }) { return source }
      if isLocalToAncestor(transition) { return transition.targets[0] }
    }
    // SCXML D `findLCCA` over [source] + join sources + targets: the nearest proper ancestor of
    // the source that is compound (or the root) and contains all the others. Parallel states
    // are skipped (§11).
    var ancestor = tree.parents[Int(source)]
    while ancestor != -1 {
      if isCompound(ancestor)
        && targets.allSatisfy({ tree.isDescendant($0, of: ancestor) })
        && transition.joinSources.allSatisfy({ tree.isDescendant($0, of: ancestor) })
      {
        return ancestor
      }
      ancestor = tree.parents[Int(ancestor)]
    }
    return -1
  }

  /// SCXML D `computeExitSet` (S8): the active proper descendants of each transition's domain.
  @inlinable
  func computeExitSet(
    _ transitions: [SelectedTransition], _ configuration: ChartConfiguration
  ) -> StateSet {
    var exits = StateSet(capacity: count)
    for transition in transitions {
      guard let domain = transitionDomain(transition, configuration.history) else { continue }
      for state in configuration.active where tree.isDescendant(state, of: domain) { exits.insert(state) }
    }
    return exits
  }

  /// SCXML D `computeEntrySet` (S9): each target with its default descendants, the ancestors
  /// below the domain, and the other regions of every parallel ancestor.
  @inlinable
  func computeEntrySet(
    _ transitions: [SelectedTransition], _ history: [Int32: [Int32]]
  ) -> EntrySet {
    var entry = EntrySet(states: StateSet(capacity: count), defaultEntry: StateSet(capacity: count))
    for transition in transitions {
      if isLocalToAncestor(transition) {
        let target = transition.targets[0]
        for state in initial[Int(target)] { addDescendants(state, &entry, history) }
        for state in initial[Int(target)] { addAncestors(state, below: target, &entry, history) }
        continue
      }
      for target in transition.targets { addDescendants(target, &entry, history) }
      let domain = transitionDomain(transition, history) ?? -1
      for target in effectiveTargets(transition.targets, history) {
        addAncestors(target, below: domain, &entry, history)
      }
    }
    return entry
  }

  /// SCXML D `addDescendantStatesToEnter`.
  @inlinable
  func addDescendants(_ state: Int32, _ entry: inout EntrySet, _ history: [Int32: [Int32]]) {
    if isHistory(state) {
      let parent = tree.parents[Int(state)]
      let targets: [Int32]
      if let recorded = history[state] {
        targets = recorded
      } else {
        entry.historyDefaults[parent] = state
        targets = historyDefaults[Int(state)]
      }
      for target in targets { addDescendants(target, &entry, history) }
      for target in targets { addAncestors(target, below: parent, &entry, history) }
      return
    }
    entry.states.insert(state)
    if isCompound(state) {
      entry.defaultEntry.insert(state)
      for target in initial[Int(state)] { addDescendants(target, &entry, history) }
      for target in initial[Int(state)] { addAncestors(target, below: state, &entry, history) }
    } else if isParallel(state) {
      enterOtherRegions(of: state, &entry, history)
    }
  }

  /// SCXML D `addAncestorStatesToEnter`: the ancestors of `state` below `ancestor`.
  @inlinable
  func addAncestors(
    _ state: Int32, below ancestor: Int32, _ entry: inout EntrySet,
    _ history: [Int32: [Int32]]
  ) {
    var parent = tree.parents[Int(state)]
    while parent != -1 && parent != ancestor {
      entry.states.insert(parent)
      if isParallel(parent) { enterOtherRegions(of: parent, &entry, history) }
      parent = tree.parents[Int(parent)]
    }
  }

  /// The regions of `parallel` that hold no state to enter yet enter their defaults.
  @inlinable
  func enterOtherRegions(
    of parallel: Int32, _ entry: inout EntrySet, _ history: [Int32: [Int32]]
  ) {
    for region in tree.stateChildren(of: parallel) {
      let last = tree.lastDescendant[Int(region)]
      var covered = false
      var state = region + 1
      while state <= last && !covered {
        covered = entry.states.contains(state)
        state += 1
      }
      if !covered { addDescendants(region, &entry, history) }
    }
  }

  /// SCXML D `isInFinalState`: a compound state with an active final child, or a parallel
  /// state all of whose regions are in a final state.
  @inlinable
  func isInFinalState(_ state: Int32, _ active: StateSet) -> Bool {
    if isCompound(state) {
      return tree.stateChildren(of: state).contains { kind($0) == .final && active.contains($0) }
    }
    if isParallel(state) {
      return tree.stateChildren(of: state).allSatisfy { isInFinalState($0, active) }
    }
    return false
  }
}
