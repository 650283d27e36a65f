import ArgumentParser
import Foundation
import GRDB
import StateMachines
import StateMachinesSQLite

/// `statemachine store init --db DB --machine NAME CHART`: creates the library's tables when they
/// are missing and stores the chart's text in `sm_machines`, so that the other commands need no
/// file (PERSISTENCE.md §11).
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
      let database = try StoreDatabase(options.db, create: true)
      let machine = options.machine
      let stored = try database.write { db -> Bool in
        try StateMachineTables.create(in: db)
        let existing = try Row.fetchOne(
          db, sql: "SELECT format, document FROM sm_machines WHERE machine = ?", arguments: [machine])
        if let existing {
          guard existing["format"] == chart.format, existing["document"] == chart.document else {
            throw ToolError(
              "error: \(database.path): machine '\(machine)' has another chart; `statemachine store migrate` replaces it")
          }
          return false
        }
        try db.execute(
          sql: "INSERT INTO sm_machines (machine, format, document, updated_at) VALUES (?, ?, ?, ?)",
          arguments: [machine, chart.format, chart.document, Self.now()])
        return true
      }
      let states = chart.definition.states.count
      print(stored ? "machine '\(machine)': chart stored (\(states) states)" : "machine '\(machine)': chart unchanged")
    }
  }

  /// Now, as `sm_machines.updated_at` keeps it: milliseconds since the epoch.
  static func now() -> Int64 {
    Int64((Date().timeIntervalSince1970 * 1000).rounded())
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
