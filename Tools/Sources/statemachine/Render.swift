import ArgumentParser
import Foundation

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

  /// Runs `dot -Tsvg` from the PATH.
  static func svg(_ dot: String) throws -> String {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    guard let executable = directories.map({ "\($0)/dot" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      throw ToolError("error: --format svg needs Graphviz's 'dot' on the PATH (install Graphviz, or use --format dot)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      throw ToolError("error: cannot run \(executable): \(error)")
    }
    input.fileHandleForWriting.write(Data(dot.utf8))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ToolError("error: dot failed with status \(process.terminationStatus)") }
    return String(decoding: data, as: UTF8.self)
  }
}
