import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@testable import StateMachinesMacros

/// The macro under test, as the compiler sees it: a member macro plus an extension macro that adds
/// the `StateMachineObject` conformance.
///
/// The member role lists `StoreManagedStateMachine` and `Sendable` in its `conformances:`
/// (SE-0407), and the compiler passes each the class does not conform to: so here every class is
/// taken to conform only if it says so in its inheritance clause. ``compilerSaysStoreManagedSpecs`` is the
/// compiler's answer for a class that conforms in an extension or through a refining protocol.
let stateMachineMacroSpecs: [String: MacroSpec] = [
  "StateMachine": MacroSpec(type: StateMachineMacro.self, conformances: ["StateMachineObject", "StoreManagedStateMachine", "Sendable"])
]

/// The macro as the compiler runs it on a class that conforms to `StoreManagedStateMachine`
/// however it says so: `StoreManagedStateMachine` is not among the missing conformances.
let compilerSaysStoreManagedSpecs: [String: MacroSpec] = [
  "StateMachine": MacroSpec(type: StateMachineMacro.self, conformances: ["StateMachineObject", "Sendable"])
]

/// Expands `@StateMachine` in `source` and checks the expansion, the diagnostics and, if given,
/// the source after applying fix-its.
///
/// Wraps the generic `assertMacroExpansion` so that every mismatch is recorded as a Swift Testing
/// `Issue` at the caller's location. (The XCTest flavour reports through XCTest, which a Swift
/// Testing run does not see, so a wrong expansion would silently pass.)
func assertExpansion(
  _ source: String,
  expandedSource: String,
  diagnostics: [DiagnosticSpec] = [],
  applyFixIts: [String]? = nil,
  fixedSource: String? = nil,
  macroSpecs: [String: MacroSpec] = stateMachineMacroSpecs,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  assertMacroExpansion(
    source,
    expandedSource: expandedSource,
    diagnostics: diagnostics,
    macroSpecs: macroSpecs,
    applyFixIts: applyFixIts,
    fixedSource: fixedSource,
    indentationWidth: .spaces(2),
    failureHandler: { failure in
      Issue.record(
        Comment(rawValue: failure.message),
        sourceLocation: SourceLocation(
          fileID: failure.location.fileID,
          filePath: failure.location.filePath,
          line: failure.location.line,
          column: failure.location.column))
    },
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column)
}

/// The diagnostics of expanding `@StateMachine` in `source`, for tests that run many sources
/// whose expansions they do not spell out (the names table). The expansion machinery is the one
/// `assertExpansion` uses; a syntax error in the expanded source is recorded as an `Issue`.
func expansionDiagnostics(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Diagnostic] {
  let file = Parser.parse(source: source)
  let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "TestModule", fullFilePath: "test.swift")])
  let expanded = file.expand(
    macroSpecs: stateMachineMacroSpecs,
    contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) },
    indentationWidth: .spaces(2))
  if expanded.hasError {
    Issue.record("the expansion of\n\(source)\nhas a syntax error:\n\(expanded)", sourceLocation: sourceLocation)
  }
  return context.diagnostics
}
