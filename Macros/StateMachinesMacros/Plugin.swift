import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct StateMachinesPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = []
}
