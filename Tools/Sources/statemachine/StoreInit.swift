import ArgumentParser
import Foundation
import StateMachines

/// `statemachine store init --db DB --machine NAME CHART`: creates the library's tables when they
/// are missing and stores the chart's text in `sm_machines`, so that the other commands need no
/// file (Persistence §11).
///
/// Running it again with the same chart changes nothing; a different chart is refused (exit 1):
/// `store migrate` replaces a chart, after checking the rows against it (P12). A chart that does
/// not load is reported as `validate` reports it, and the database is not touched.
struct StoreInit: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init", abstract: "Create the tables if missing and store the chart under the machine's name.")

  @OptionGroup var options: StoreOptions

  @Argument(help: "The chart: our JSON, TBStateMachine JSON or SCXML.")
  var chart: String

  func run() async throws {
    try await runReporting {
      let chart = try StoredChartFile(chart)
      let machine = options.machine
      let stored = try await StoreBackends.with(options.db, create: true) { database in
        try await database.initialize(machine, chart: chart)
      }
      let states = chart.definition.states.count
      print(stored ? "machine '\(machine)': chart stored (\(states) states)" : "machine '\(machine)': chart unchanged")
    }
  }
}

/// A chart file to store: its definition (so that a bad chart is refused before the database is
/// opened), its format and its text.
struct StoredChartFile {
  let definition: StateMachineDefinition<DynamicStateMachine>
  /// `scxml`, or `json` (our JSON or TBStateMachine JSON, told apart when loading).
  let format: String
  let document: String

  init(_ path: String) throws {
    let file = try DefinitionFile(path)
    definition = try file.load()
    format = file.isSCXML ? "scxml" : "json"
    guard let document = String(data: file.data, encoding: .utf8) else {
      throw ToolError("\(path): error: the chart is not UTF-8 text")
    }
    self.document = document
  }
}
