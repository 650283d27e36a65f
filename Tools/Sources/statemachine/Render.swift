import ArgumentParser
import Foundation
import StateMachinesInspector

/// `statemachine render FILE --format dot|mermaid|svg`: the diagram on standard output.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print a definition's diagram: Graphviz DOT, Mermaid, or SVG (through Graphviz's dot).")

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case dot, mermaid, svg
  }

  @Argument(help: "A definition file.")
  var file: String

  @Option(help: "dot, mermaid or svg.")
  var format: Format = .dot

  func run() throws {
    do {
      let definition = try DefinitionFile(file).load()
      switch format {
      case .dot: print(definition.dotDiagram)
      case .mermaid: print(definition.mermaidDiagram)
      case .svg: print(try Self.svg(definition.dotDiagram))
      }
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
  }

  /// Runs `dot -Tsvg` from the PATH (the inspector's renderer).
  static func svg(_ dot: String) throws -> String {
    do {
      return try DiagramRenderer.svg(rendering: dot)
    } catch .dotMissing {
      throw ToolError("error: --format svg needs Graphviz's 'dot' on the PATH (install Graphviz, or use --format dot)")
    } catch {
      throw ToolError("error: \(error)")
    }
  }
}
