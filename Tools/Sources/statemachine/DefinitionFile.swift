import Foundation
import StateMachines
import StateMachinesSCXML

/// A definition file: our JSON or TBStateMachine JSON (told apart by the loader), or SCXML (by
/// its extension, or a document that starts with `<`). Guards named in it pass, actions do
/// nothing and invoked work (an invoke's `src`) succeeds at once with no payload (JSON null),
/// unless a tool binds them otherwise: the tool has no code to bind.
struct DefinitionFile {
  let path: String
  let data: Data

  /// Whether the document is SCXML, when known from elsewhere than the path (a stored chart).
  let format: String?

  init(_ path: String) throws {
    self.path = path
    guard let data = FileManager.default.contents(atPath: path) else { throw ToolError("\(path): error: cannot read the file") }
    self.data = data
    format = nil
  }

  /// A document read from elsewhere (a chart kept in the database), `path` naming it in errors.
  init(path: String, data: Data, format: String) {
    self.path = path
    self.data = data
    self.format = format
  }

  var isSCXML: Bool {
    if let format { return format == "scxml" }
    if path.hasSuffix(".scxml") || path.hasSuffix(".xml") { return true }
    return data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "<")
  }

  /// Loads the definition; `actions` hears each action as it runs, `results` each result event
  /// of an invoke (`done.invoke.<id>`, `error.invoke.<id>`) that took a transition; `stub` is
  /// the work of every invoke (by default, it succeeds at once with no payload).
  func load(
    actions: @escaping @Sendable (String) -> Void = { _ in }, results: (@Sendable (String) -> Void)? = nil,
    stub: @escaping Bindings<DynamicStateMachine>.InvocationWork = { _ in nil }
  ) throws -> StateMachineDefinition<DynamicStateMachine> {
    let bind: (inout Bindings<DynamicStateMachine>) -> Void = { bind in
      bind.bindUnknownNames(
        guard: { _ in { _, _ in true } }, action: { name in { _, _ in actions(name) } }, invocation: { _ in stub })
    }
    let build: (StateMachineBuilder<DynamicStateMachine>) -> Void = { sm in
      guard let results else { return }
      sm.didTransition { _, transition in
        if transition.event.hasPrefix("done.invoke.") || transition.event.hasPrefix("error.invoke.") {
          results(transition.event)
        }
      }
    }
    do {
      if isSCXML { return try StateMachineDefinition(scxml: data, bind: bind, build) }
      return try StateMachineDefinition(json: data, bind: bind, build)
    } catch {
      throw ToolError(diagnostic(error))
    }
  }

  /// `file:line:column: error: message`, the form compilers and editors read; an error that
  /// several nodes cause adds a `file:line:column: note:` line for each of the others.
  func diagnostic(_ error: DefinitionError) -> String {
    switch error {
    case .located(let error, let locations) where !locations.isEmpty:
      func place(_ location: DefinitionLocation) -> String { "\(path):\(location.line):\(location.column)" }
      func at(_ location: DefinitionLocation) -> String { location.pointer.map { " (at '\($0)')" } ?? "" }
      let main = "\(place(locations[0])): error: \(error)\(at(locations[0]))"
      let notes = locations.dropFirst().map { "\(place($0)): note: the error also involves this\(at($0))" }
      return ([main] + notes).joined(separator: "\n")
    case .invalidJSON(let message, let line, let column, let pointer):
      return "\(path):\(line):\(column): error: \(message) (at '\(pointer)')"
    case .unboundName(let name, let pointer, let line, let column):
      return "\(path):\(line):\(column): error: \(name) is not bound (at '\(pointer)')"
    case .invalidDocument(let message, let line, let column):
      return "\(path):\(line):\(column): error: \(message)"
    default:
      return "\(path): error: \(error)"
    }
  }
}

/// A failure the tool reports and exits 1 for.
struct ToolError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Writes to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}
