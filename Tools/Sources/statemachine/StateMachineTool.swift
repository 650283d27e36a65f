import ArgumentParser

/// `statemachine`: validate, render and run state machine definitions kept as data, and drive
/// their persisted instances (`store`).
@main
struct StateMachineTool: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "statemachine",
    abstract: "Validate, render and run state machine definitions (our JSON, TBStateMachine JSON, SCXML).",
    subcommands: [Validate.self, Render.self, Run.self, Paths.self, Inspect.self, Store.self])
}
