import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@StateMachine`: generates the state, event methods, queries and the `StateMachineObject`
/// conformance of a class from its `StateMachineDefinition`.
public struct StateMachineMacro {
  /// The generated code is written already formatted: skipping swift-syntax's formatter pass
  /// saves most of the expansion's cost (compile time per annotated class).
  public static var formatMode: FormatMode { .disabled }
}

extension StateMachineMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
      context.diagnose(notAClassDiagnostic(node: node, declaration: declaration))
      return []
    }
    let machineClass = MachineClass(classDecl, conformingTo: protocols)
    let found = DefinitionLocator.definitions(in: classDecl)
    guard let definition = found.first else {
      context.diagnose(missingDefinitionDiagnostic(machineClass))
      return []
    }
    for extra in found.dropFirst() {
      context.diagnose(
        Diagnostic(
          node: extra.node, message: StateMachineDiagnostic.multipleDefinitions(className: machineClass.name),
          notes: [Note(node: definition.node, message: StateMachineNote.declaredHere(definition.propertyName))]))
    }
    if let problem = definition.shapeProblem {
      context.diagnose(
        DefinitionShape.diagnostic(
          problem, property: definition.propertyName, variable: definition.variable, binding: definition.binding))
      return []
    }
    var states: [GeneratedName] = []
    var events: [GeneratedName] = []
    if let closure = definition.closure {
      let reader = DefinitionReader(builderName: DefinitionLocator.builderName(of: closure), propertyName: definition.propertyName)
      reader.walk(closure.statements)
      let checker = DefinitionChecker(definition: reader.definition, machineClass: machineClass, closure: closure)
      checker.diagnostics.forEach(context.diagnose)
      states = checker.states
      events = checker.events
    }
    return MemberGenerator(machineClass: machineClass, definitionProperty: definition.propertyName)
      .members(states: states, events: events)
  }

  private static func notAClassDiagnostic(node: AttributeSyntax, declaration: some DeclGroupSyntax) -> Diagnostic {
    let (kind, name, keyword): (String, String, TokenSyntax?) =
      if let decl = declaration.as(StructDeclSyntax.self) {
        ("struct", decl.name.text, decl.structKeyword)
      } else if let decl = declaration.as(EnumDeclSyntax.self) {
        ("enum", decl.name.text, nil)
      } else if let decl = declaration.as(ActorDeclSyntax.self) {
        ("actor", decl.name.text, decl.actorKeyword)
      } else if let decl = declaration.as(ProtocolDeclSyntax.self) {
        ("protocol", decl.name.text, nil)
      } else if let decl = declaration.as(ExtensionDeclSyntax.self) {
        ("extension of", decl.extendedType.trimmedDescription, nil)
      } else {
        ("this", "declaration", nil)
      }
    let fixIts = keyword.map { keyword in
      [
        FixIt(
          message: StateMachineFixIt.useClass(kind: kind),
          changes: [
            .replace(
              oldNode: Syntax(keyword),
              newNode: Syntax(
                TokenSyntax.identifier("final class", leadingTrivia: keyword.leadingTrivia, trailingTrivia: keyword.trailingTrivia)))
          ])
      ]
    }
    return Diagnostic(node: node, message: StateMachineDiagnostic.notAClass(kind: kind, name: name), fixIts: fixIts ?? [])
  }

  /// No definition: offer a skeleton to fill in, as the class's first member, indented like the
  /// other members.
  private static func missingDefinitionDiagnostic(_ machineClass: MachineClass) -> Diagnostic {
    let memberBlock = machineClass.declaration.memberBlock
    let classIndentation = indentation(of: Syntax(machineClass.declaration))
    let memberIndentation = memberBlock.members.first.map { indentation(of: Syntax($0)) } ?? classIndentation + "    "
    let step =
      memberIndentation.count > classIndentation.count && memberIndentation.hasPrefix(classIndentation)
      ? String(memberIndentation.dropFirst(classIndentation.count)) : "    "
    let skeletonDecl: DeclSyntax = """
      static let stateMachine = StateMachineDefinition<\(raw: machineClass.name)> { sm in
      \(raw: memberIndentation + step)sm.addState("initial")
      \(raw: memberIndentation)}
      """
    let skeleton = MemberBlockItemSyntax(decl: skeletonDecl.with(\.leadingTrivia, trivia(newlineThen: memberIndentation)))
    var newBlock = memberBlock.with(\.members, MemberBlockItemListSyntax([skeleton] + Array(memberBlock.members)))
    if memberBlock.members.isEmpty {
      newBlock.rightBrace = memberBlock.rightBrace.with(\.leadingTrivia, trivia(newlineThen: classIndentation))
    }
    let fixIt = FixIt(
      message: StateMachineFixIt.insertDefinition,
      changes: [.replace(oldNode: Syntax(memberBlock), newNode: Syntax(newBlock))])
    return Diagnostic(
      node: machineClass.declaration.name,
      message: StateMachineDiagnostic.missingDefinition(className: machineClass.name), fixIts: [fixIt])
  }

  /// The spaces and tabs that start the line `node` begins on.
  private static func indentation(of node: Syntax) -> String {
    let afterNewline = node.leadingTrivia.pieces.reversed().prefix { !$0.isNewline }.reversed()
    return afterNewline.map { piece in
      switch piece {
      case .spaces(let count): String(repeating: " ", count: count)
      case .tabs(let count): String(repeating: "\t", count: count)
      default: ""
      }
    }.joined()
  }

  private static func trivia(newlineThen indentation: String) -> Trivia {
    let spaces = indentation.filter { $0 == " " }.count
    let tabs = indentation.count - spaces
    return .newline + (tabs > 0 ? .tabs(tabs) : []) + (spaces > 0 ? .spaces(spaces) : [])
  }
}

extension StateMachineMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self),
      protocols.contains(where: { MachineClass.baseName(of: $0) == "StateMachineObject" }),
      let definition = DefinitionLocator.definitions(in: classDecl).first, definition.shapeProblem == nil
    else { return [] }
    let isolation = MachineClass(classDecl).globalActor.map { "@\($0) " } ?? ""
    return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: isolation)StateMachines.StateMachineObject {\n}")]
  }
}
