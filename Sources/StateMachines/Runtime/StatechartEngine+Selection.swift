// Transition selection of the statechart step (Hierarchy §2, S4–S6): SCXML Appendix D's
// `selectTransitions` on indices, and whether one transition is enabled (its guard, a junction's
// path, a join's arrivals).

import Foundation

extension StatechartEngine {
  /// SCXML D `selectTransitions` / `selectEventlessTransitions` (S4): for each active atomic
  /// state in document order, the first enabled transition of it or its nearest ancestor, then
  /// wildcards; duplicates once; conflicts removed (S6). Each guard runs at most once.
  @inlinable
  static func selectTransitions(
    _ definition: StateMachineDefinition<Model>,
    _ chart: Statechart<Model>, event: Int32, eventName: String, _ configuration: ChartConfiguration,
    _ payload: (any Sendable)?, _ model: Model
  ) throws -> [SelectedTransition] {
    var enabled: [SelectedTransition] = []
    // Transitions already evaluated in this selection (a guard runs at most once): few, so an
    // array searched linearly beats a dictionary.
    var evaluated: [(index: Int32, candidate: SelectedTransition?)] = []
    var taken: [Int32] = []
    for atomic in configuration.active where chart.isAtomic(atomic) {
      var holder = atomic
      search: while true {
        for index in chart.transitions(from: holder) where chart.transitions[Int(index)].event == event {
          let candidate: SelectedTransition?
          if let known = evaluated.first(where: { $0.index == index }) {
            candidate = known.candidate
          } else {
            candidate = try enable(definition, chart, index, eventName: eventName, configuration, payload, model)
            evaluated.append((index, candidate))
          }
          if let candidate {
            if !taken.contains(index) {
              taken.append(index)
              enabled.append(candidate)
            }
            break search
          }
        }
        if holder == -1 { break }
        holder = chart.tree.parents[Int(holder)]
      }
    }
    return chart.removeConflictingTransitions(enabled, configuration)
  }

  /// Whether transition `index` is enabled: its guard passes, and for a junction one of its
  /// paths does (S5, S17c); a transition to a join records an arrival or completes it (S17b).
  @inlinable
  static func enable(
    _ definition: StateMachineDefinition<Model>,
    _ chart: Statechart<Model>, _ index: Int32, eventName: String, _ configuration: ChartConfiguration,
    _ payload: (any Sendable)?, _ model: Model
  ) throws -> SelectedTransition? {
    let declared = chart.transitions[Int(index)]
    func transition() -> Transition {
      Transition(
        event: eventName, from: stateString(definition, configuration.active, chart),
        to: declared.targetPaths.joined(separator: ","),
        payload: payload, source: declared.sourcePath, targets: declared.targetPaths, kind: declared.kind)
    }
    if let guardBody = declared.guardBody {
      let passed = try guardBody(model, transition)
      definition.trace("guard of '\(eventName)' from '\(chart.tree.path(declared.source))': \(passed)")
      guard passed else { return nil }
    }
    var actions: [MachineCallback<Model>] = []
    if let action = declared.action { actions.append(action) }
    var targets = declared.targets
    var junctionPath: Int32 = -1
    if targets.count == 1, chart.kind(targets[0]) == .junction {
      var chosen: Statechart<Model>.Path?
      for (position, path) in chart.junctionPaths[Int(targets[0])].enumerated() {
        if try path.guardBody?(model, transition) ?? true {
          chosen = path
          junctionPath = Int32(position)
          break
        }
      }
      guard let chosen else { return nil }
      targets = [chosen.target]
      if let action = chosen.action { actions.append(action) }
    }
    var selected = SelectedTransition(
      source: declared.source, targets: targets, kind: declared.kind, actions: actions, terminates: declared.terminates,
      index: index)
    if targets.count == 1, chart.kind(targets[0]) == .join {
      let join = targets[0]
      let sources = chart.joinSources[Int(join)]
      let arrived = Set(configuration.arrivals[join] ?? []).union([declared.source])
      if sources.allSatisfy({ arrived.contains($0) && configuration.active.contains($0) }) {
        selected = SelectedTransition(
          source: declared.source, targets: [chart.joinTargets[Int(join)]], kind: .external, actions: actions,
          joinSources: sources, completedJoin: join, terminates: declared.terminates, index: index)
      } else {
        selected = SelectedTransition(
          source: declared.source, targets: [], kind: .internal, actions: actions, arrival: (join, declared.source),
          terminates: declared.terminates, index: index)
      }
    }
    selected.junctionPath = junctionPath
    return selected
  }
}
