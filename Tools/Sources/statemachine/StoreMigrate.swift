import ArgumentParser
import Foundation
import StateMachines

/// `statemachine store migrate --db DB --machine NAME CHART`: replaces the machine's stored chart.
///
/// Refused (exit 1, each offending row named on standard error, nothing written) while a row's
/// state or a history record names a state the new chart lacks (P12): move those rows first.
/// The check and the replacement are one transaction, so no step commits in between. Processes
/// that loaded the old chart before keep it until they exit: add states first, remove them once
/// `store verify` is clean.
struct StoreMigrate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Replace the machine's chart; refused (exit 1) while a row's state is not in the new chart.")

  @OptionGroup var options: StoreOptions

  @Argument(help: "The new chart: our JSON, TBStateMachine JSON or SCXML.")
  var chart: String

  func run() async throws {
    var offending: [String] = []
    try await runReporting {
      let chart = try StoredChartFile(chart)
      let machine = options.machine
      let definition = chart.definition
      let (rows, problems) = try await StoreBackends.with(options.db, create: false) { database in
        _ = try await database.storedChart(machine)
        return try await database.replaceChart(machine, chart: chart) { instances in
          instances.compactMap { row in Self.problem(row, definition) }
        }
      }
      offending = problems
      if offending.isEmpty { print("machine '\(machine)': chart replaced (\(rows) rows checked)") }
    }
    guard offending.isEmpty else {
      for line in offending { printError(line) }
      throw ExitCode.failure
    }
  }

  /// What keeps a row from following `definition`: its state, or a history record naming a
  /// state, that the chart lacks (P12); `nil` when it has none.
  static func problem(_ row: InstanceRow, _ definition: StateMachineDefinition<DynamicStateMachine>) -> String? {
    let (id, state) = (row.id, row.state)
    if definition.activeStates(inStored: state).isEmpty {
      return "error: row '\(id)' is in '\(state)', which is not a state of the new chart"
    }
    guard let text = row.history else { return nil }
    let history = (try? JSONDecoder().decode([String: [String]].self, from: Data(text.utf8))) ?? [:]
    for (path, states) in history.sorted(by: { $0.key < $1.key }) {
      if let missing = ([path] + states).first(where: { definition.storedName(of: $0) == nil }) {
        return "error: row '\(id)' has a history record naming '\(missing)', which is not a state of the new chart"
      }
    }
    return nil
  }
}
