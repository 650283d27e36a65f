import ArgumentParser
import Foundation
import StateMachines

/// `statemachine paths FILE [--cover states|transitions] [--json]`: paths through a definition
/// file, computed from it: the shortest path to every configuration it reaches, or paths that
/// take every transition. Guards are bound as `run` binds them (they pass); SCXML `In()`
/// conditions are evaluated; events raised and sent by the chart's executable content are part
/// of each step, delayed sends are steps of their own, and actions bound by name are reported as
/// not run.
struct Paths: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Print paths through a definition: the shortest to every configuration (--cover states) or a set that takes every transition (--cover transitions).")

  enum Cover: String, ExpressibleByArgument, CaseIterable {
    case states, transitions
  }

  @Argument(help: "A definition file: our JSON, TBStateMachine JSON or SCXML.")
  var file: String

  @Option(help: "What the paths cover: states (every configuration, by its shortest path) or transitions.")
  var cover: Cover = .states

  @Flag(help: "Print one JSON array of paths, each {\"steps\": [{\"event\": …, \"configuration\": […]}, …]}.")
  var json = false

  func run() throws {
    let definitionFile: DefinitionFile
    let paths: StateMachinePaths
    do {
      definitionFile = try DefinitionFile(file)
      paths = try StateMachinePaths(evaluatingGuardsOf: try definitionFile.load())
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    let set = cover == .states ? paths.shortestPaths() : paths.transitionCover()
    if let stopped = set.stoppedEarly { printError("\(file): warning: \(stopped)") }
    // Code the explorer does not run: an event it fires is not part of any path (declared
    // raises and sends are).
    for callback in paths.unseenCallbacks {
      printError("\(file): warning: the explorer does not run the \(callback) (code): events it fires are not in these paths")
    }
    // Guards pass here, so their failing outcomes are not targets worth a warning.
    for missed in set.unreached where !missed.hasPrefix("[") { printError("\(file): warning: never reached: \(missed)") }
    // SCXML names a state by its id (unique in the document): the last part of its path.
    let name: (String) -> String = definitionFile.isSCXML ? { String($0.split(separator: "/").last ?? Substring($0)) } : { $0 }
    if json {
      let array = set.paths.map { path in
        [
          "steps": path.steps.map { step in
            [
              "event": Self.event(of: step).map { $0 as Any } ?? NSNull(),
              "configuration": step.configuration.map(name).sorted(),
            ] as [String: Any]
          }
        ]
      }
      let data = try JSONSerialization.data(withJSONObject: array, options: [.sortedKeys, .withoutEscapingSlashes])
      print(String(decoding: data, as: UTF8.self))
    } else {
      for path in set.paths {
        print(
          path.steps.map { step in
            let configuration = step.configuration.map(name).sorted().joined(separator: ", ")
            return Self.event(of: step).map { "–\($0)→ \(configuration)" } ?? configuration
          }.joined(separator: " "))
      }
    }
  }

  /// The event a step delivers: its own, a timeout's, or an invoke's result event; `nil` for the
  /// start.
  static func event(of step: StateMachinePathStep) -> String? {
    switch step.kind {
    case .start: return nil
    case .event(let name), .timeout(let name, _): return name
    case .invokeDone(let id): return "done.invoke.\(id)"
    case .invokeFailed(let id): return "error.invoke.\(id)"
    case .delayedSend(let events, _): return events.joined(separator: ", ")
    }
  }
}
