import ArgumentParser

/// `statemachine validate FILE…`: loads each file; prints an error line per failure.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check definitions; print 'file:line:column: error: …' for each that fails (exit status 1).")

  @Argument(help: "Definition files: our JSON, TBStateMachine JSON or SCXML.")
  var files: [String]

  func run() throws {
    var failed = false
    for path in files {
      do {
        let file = try DefinitionFile(path)
        let definition = try file.load()
        for warning in definition.definitionWarnings { printError("\(path): warning: \(warning)") }
        var summary = "\(definition.states.count) states, \(definition.events.count) events"
        let invokes = definition.invokes
        if !invokes.isEmpty { summary += ", invokes: " + invokes.map(\.description).joined(separator: ", ") }
        print("\(path): ok (\(summary))")
      } catch {
        printError("\(error)")
        failed = true
      }
    }
    if failed { throw ExitCode.failure }
  }
}
