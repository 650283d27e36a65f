import ArgumentParser
import Foundation

/// `statemachine store …`: persisted instances of a chart in a database (Persistence §11), so
/// that operators can look at and repair them and scripts in any language can drive them.
///
/// Every subcommand takes `--db` (a SQLite file: `PATH` or `sqlite:PATH`; or a PostgreSQL database:
/// a `postgres://` or `postgresql://` URL) and `--machine`. Any number of these processes may run
/// at once on one database: each step is one transaction (P1), and every rule of the Persistence
/// article holds for them. Both databases print the same. Errors are one line on standard error
/// with exit status 1, and nothing is written.
struct Store: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Persisted instances of a chart in SQLite or PostgreSQL (init, fire, show, history, list, run-due, …).",
    subcommands: [
      StoreInit.self, StoreMigrate.self, StoreInsert.self, StoreFire.self, StoreShow.self, StoreHistory.self,
      StoreList.self, StoreRunDue.self, StoreVerify.self,
    ])
}

/// The options every `store` subcommand takes: the database and the machine's name.
struct StoreOptions: ParsableArguments {
  @Option(help: "The database: a SQLite file path or sqlite:PATH, or a postgres:// (postgresql://) URL.")
  var db: String

  @Option(help: "The machine's name: its chart and instances are kept under it.")
  var machine: String
}

/// Exit status 3: the machine rejected the event (`store fire`).
let rejectedExitCode = ExitCode(3)

/// Runs a subcommand's body: a ``ToolError`` is printed on standard error and exits 1.
func runReporting(_ body: () async throws -> Void) async throws {
  do {
    try await body()
  } catch let error as ToolError {
    printError(error.description)
    throw ExitCode.failure
  }
}

/// `text` on one line: newlines (from SQL in database errors, say) become spaces.
func oneLine(_ text: String) -> String {
  text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}
