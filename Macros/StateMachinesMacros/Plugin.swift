import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides `@StateMachine`.
@main
struct StateMachinesPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [StateMachineMacro.self]
}
