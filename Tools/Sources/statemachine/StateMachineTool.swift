import ArgumentParser

/// `statemachine`: validate, render and run state machine definitions kept as data.
@main
struct StateMachineTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "statemachine",
    abstract: "Validate, render and run state machine definitions (our JSON, TBStateMachine JSON, SCXML).",
    subcommands: [Validate.self, Render.self, Run.self])
}
