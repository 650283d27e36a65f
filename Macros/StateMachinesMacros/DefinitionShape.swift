import SwiftDiagnostics
import SwiftSyntax

/// The one shape a definition property may have: a stored `static let` with an initializer.
///
/// The generated members resolve their state and event ids once, from the definition they read
/// first, and keep an unretained pointer to it. That is sound only when the property is evaluated
/// once and lives as long as the process: a computed property, a `static var`, a `class var` or a
/// `lazy` property would hand later reads a different definition than the ids point into.
enum DefinitionShape {
  /// What is wrong with a definition property, as the diagnostic says it.
  enum Problem: Equatable {
    case computed
    case variable
    case lazy
    case noInitializer

    var description: String {
      switch self {
      case .computed: return "a computed property"
      case .variable: return "a 'var'"
      case .lazy: return "'lazy'"
      case .noInitializer: return "declared without an initializer"
      }
    }
  }

  /// The problem of `binding` in `variable`, or `nil` for a stored `static let` with an initializer.
  static func problem(of variable: VariableDeclSyntax, binding: PatternBindingSyntax) -> Problem? {
    if binding.accessorBlock != nil { return .computed }
    if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return .lazy }
    if variable.bindingSpecifier.tokenKind != .keyword(.let) { return .variable }
    if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.class) }) { return .variable }
    if binding.initializer == nil { return .noInitializer }
    return nil
  }

  /// The error on the culprit, with a fix-it that rewrites it as a stored `static let` wherever the
  /// rewrite keeps the definition's expression (a getter's body becomes the initializer).
  static func diagnostic(
    _ problem: Problem, property: String, variable: VariableDeclSyntax, binding: PatternBindingSyntax
  ) -> Diagnostic {
    let fixIts =
      storedStaticLet(variable, binding: binding).map { fixed in
        [
          FixIt(
            message: StateMachineFixIt.makeStoredStaticLet(property),
            changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(fixed))])
        ]
      } ?? []
    return Diagnostic(
      node: Syntax(variable),
      message: StateMachineDiagnostic.definitionNotStoredLet(property: property, problem: problem.description),
      fixIts: fixIts)
  }

  /// `variable` as a stored `static let`, or `nil` when there is no expression to initialize it with
  /// (no initializer, or several bindings in one declaration).
  private static func storedStaticLet(_ variable: VariableDeclSyntax, binding: PatternBindingSyntax) -> VariableDeclSyntax? {
    guard variable.bindings.count == 1 else { return nil }
    let value: ExprSyntax
    if let initializer = binding.initializer {
      value = initializer.value
    } else if let body = getterBody(binding.accessorBlock) {
      value = body
    } else {
      return nil
    }
    var fixed = variable
    fixed.modifiers = DeclModifierListSyntax(
      variable.modifiers.compactMap { modifier -> DeclModifierSyntax? in
        switch modifier.name.tokenKind {
        case .keyword(.lazy): return nil
        case .keyword(.class): return modifier.with(\.name, .keyword(.static, trailingTrivia: modifier.name.trailingTrivia))
        default: return modifier
        }
      })
    if !fixed.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) {
      fixed.modifiers.append(DeclModifierSyntax(name: .keyword(.static, trailingTrivia: .space)))
    }
    fixed.bindingSpecifier = .keyword(
      .let, leadingTrivia: variable.bindingSpecifier.leadingTrivia, trailingTrivia: variable.bindingSpecifier.trailingTrivia)
    var fixedBinding = binding.with(\.accessorBlock, nil)
    fixedBinding.typeAnnotation = binding.typeAnnotation?.with(\.trailingTrivia, .space)
    let pattern = binding.pattern.with(\.trailingTrivia, binding.typeAnnotation == nil ? .space : [])
    fixedBinding.pattern = pattern
    fixedBinding.initializer = InitializerClauseSyntax(
      equal: .equalToken(trailingTrivia: .space), value: value.trimmed)
    fixed.bindings = PatternBindingListSyntax([fixedBinding])
    // The first token may be new (`static` for `class`) or gone (`lazy`): the line's indentation stays.
    return fixed.with(\.leadingTrivia, variable.leadingTrivia)
  }

  /// The expression a getter returns, when its body is that one expression (`{ X }`,
  /// `{ return X }`, `{ get { X } }`).
  private static func getterBody(_ accessors: AccessorBlockSyntax?) -> ExprSyntax? {
    guard let accessors else { return nil }
    let statements: CodeBlockItemListSyntax
    switch accessors.accessors {
    case .getter(let items):
      statements = items
    case .accessors(let list):
      guard list.count == 1, let getter = list.first, getter.accessorSpecifier.tokenKind == .keyword(.get),
        let body = getter.body
      else { return nil }
      statements = body.statements
    }
    guard statements.count == 1, let item = statements.first?.item else { return nil }
    if let expression = item.as(ExprSyntax.self) { return expression }
    if let returned = item.as(ReturnStmtSyntax.self) { return returned.expression }
    return nil
  }
}
