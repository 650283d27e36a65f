import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@StateMachine`: generates the state, event methods, queries and the `StateMachineObject`
/// conformance of a class from its `StateMachineDefinition`.
public struct StateMachineMacro {}

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
    let machineClass = MachineClass(classDecl)
    let found = DefinitionLocator.definitions(in: classDecl)
    guard let definition = found.first else {
      context.diagnose(missingDefinitionDiagnostic(machineClass))
      return []
    }
    if found.count > 1 {
      context.diagnose(
        Diagnostic(node: found[1].node, message: StateMachineDiagnostic.multipleDefinitions(className: machineClass.name)))
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

  /// No definition: offer a skeleton to fill in.
  private static func missingDefinitionDiagnostic(_ machineClass: MachineClass) -> Diagnostic {
    let memberBlock = machineClass.declaration.memberBlock
    let skeletonDecl: DeclSyntax = """
      static let stateMachine = StateMachineDefinition<\(raw: machineClass.name)> { sm in
        sm.addState("initial")
      }
      """
    let skeleton = MemberBlockItemSyntax(decl: skeletonDecl)
    let indentation = memberBlock.members.first?.leadingTrivia ?? .newline
    var members = Array(memberBlock.members)
    members.insert(skeleton.with(\.leadingTrivia, indentation), at: 0)
    let fixIt = FixIt(
      message: StateMachineFixIt.insertDefinition,
      changes: [.replace(oldNode: Syntax(memberBlock.members), newNode: Syntax(MemberBlockItemListSyntax(members)))])
    return Diagnostic(
      node: machineClass.declaration.name,
      message: StateMachineDiagnostic.missingDefinition(className: machineClass.name), fixIts: [fixIt])
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
    guard let classDecl = declaration.as(ClassDeclSyntax.self), !protocols.isEmpty,
      !DefinitionLocator.definitions(in: classDecl).isEmpty
    else { return [] }
    let isolation = MachineClass(classDecl).globalActor.map { "@\($0) " } ?? ""
    return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: isolation)StateMachines.StateMachineObject {}")]
  }
}
