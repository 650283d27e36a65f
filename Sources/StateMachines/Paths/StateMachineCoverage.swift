// What a run of generated tests covered, and what it never reached.

import Foundation

/// The coverage of a test run: the states and configurations its replayed paths visited, the
/// transitions they took, the guard outcomes they saw (held, failed) and the timeouts that fired,
/// each against everything the machine has, so that the report says what was never reached.
///
/// Pass it to ``StateMachinePath/replay(on:payload:coverage:before:after:isolation:)``; it records each
/// step that checked out. Safe to share between tests that run in parallel.
public final class StateMachineCoverage: @unchecked Sendable {
  /// One kind of target: what was seen, and what never was.
  public struct Section: Sendable, Codable, Equatable {
    public let seen: [String]
    public let never: [String]
  }

  /// The report: a section per kind of target.
  public struct Report: Sendable, Codable, Equatable, CustomStringConvertible {
    public let states: Section
    public let configurations: Section
    public let transitions: Section
    public let guardOutcomes: Section
    public let timeouts: Section

    /// One line per section (`transitions: 5 of 6`), then what was never reached.
    public var description: String {
      let sections = [
        ("states", states), ("configurations", configurations), ("transitions", transitions),
        ("guard outcomes", guardOutcomes), ("timeouts", timeouts),
      ]
      var lines: [String] = []
      for (name, section) in sections {
        let total = section.seen.count + section.never.count
        lines.append("\(name): \(section.seen.count) of \(total)")
        for missed in section.never { lines.append("  never: \(missed)") }
      }
      return lines.joined(separator: "\n")
    }

    /// The report as JSON: `{"states": {"seen": [...], "never": [...]}, ...}`, keys sorted.
    public var json: String {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
      return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
  }

  private let lock = NSLock()
  private let all: (states: [String], configurations: [String], transitions: [String], guards: [String], timeouts: [String])
  private var seen: (states: Set<String>, configurations: Set<String>, transitions: Set<String>, guards: Set<String>, timeouts: Set<String>) =
    ([], [], [], [], [])

  /// Coverage against everything `paths` found the machine has.
  public init(_ paths: StateMachinePaths) {
    // A configuration reached with different history records is one configuration here.
    var configurations: [String] = []
    var known: Set<String> = []
    for configuration in paths.configurations.map({ $0.joined(separator: ", ") }) where known.insert(configuration).inserted {
      configurations.append(configuration)
    }
    all = (
      paths.atomicStates, configurations, paths.transitionNames,
      paths.guardOutcomeNames, paths.timeoutNames
    )
  }

  /// Records a step that checked out.
  public func record(_ step: StateMachinePathStep) {
    lock.withLock {
      seen.states.formUnion(step.configuration)
      seen.configurations.insert(step.configuration.joined(separator: ", "))
      seen.transitions.formUnion(step.transitions)
      seen.guards.formUnion(step.guards.map(\.description))
      if case .timeout = step.kind { seen.timeouts.formUnion(step.transitions) }
    }
  }

  /// What the replays recorded so far.
  public var report: Report {
    lock.withLock {
      func section(_ all: [String], _ seen: Set<String>) -> Section {
        Section(seen: all.filter(seen.contains), never: all.filter { !seen.contains($0) })
      }
      return Report(
        states: section(all.states, seen.states), configurations: section(all.configurations, seen.configurations),
        transitions: section(all.transitions, seen.transitions), guardOutcomes: section(all.guards, seen.guards),
        timeouts: section(all.timeouts, seen.timeouts))
    }
  }
}
