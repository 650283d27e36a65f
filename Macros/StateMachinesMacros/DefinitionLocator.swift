import SwiftSyntax

/// Finds the `static let x = StateMachineDefinition<Model> { sm in … }` of a class.
enum DefinitionLocator {
  /// A definition property: its name and the builder closure.
  struct Found {
    let propertyName: String
    let closure: ClosureExprSyntax?
    let node: Syntax
    let variable: VariableDeclSyntax
    let binding: PatternBindingSyntax

    /// What keeps it from being a stored `static let` with an initializer, if anything.
    var shapeProblem: DefinitionShape.Problem? { DefinitionShape.problem(of: variable, binding: binding) }
  }

  static func definitions(in declaration: ClassDeclSyntax) -> [Found] {
    var found: [Found] = []
    for member in declaration.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.modifiers.contains(where: {
          $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
        })
      else { continue }
      for binding in variable.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
          continue
        }
        let annotated = binding.typeAnnotation.map { isDefinitionType($0.type) } ?? false
        let call = binding.initializer.flatMap { definitionCall(in: $0.value, annotated: annotated) }
        guard annotated || call != nil else { continue }
        found.append(
          Found(
            propertyName: name, closure: call.flatMap(builderClosure), node: Syntax(binding), variable: variable,
            binding: binding))
      }
    }
    return found
  }

  /// The parameter name the closure gives the builder (`sm`), or `$0`.
  static func builderName(of closure: ClosureExprSyntax) -> String {
    switch closure.signature?.parameterClause {
    case .simpleInput(let parameters):
      return parameters.first?.name.text ?? "$0"
    case .parameterClause(let clause):
      return clause.parameters.first.map { ($0.secondName ?? $0.firstName).text } ?? "$0"
    case nil:
      return "$0"
    }
  }

  private static func isDefinitionType(_ type: TypeSyntax) -> Bool {
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return identifier.name.text == "StateMachineDefinition"
    }
    if let member = type.as(MemberTypeSyntax.self) {
      return member.name.text == "StateMachineDefinition"
    }
    return false
  }

  /// `StateMachineDefinition<X> { … }`, `StateMachines.StateMachineDefinition<X>(…)`, `.init { … }`
  /// after a type annotation, possibly behind `try`.
  private static func definitionCall(in expression: ExprSyntax, annotated: Bool) -> FunctionCallExprSyntax? {
    if let tryExpression = expression.as(TryExprSyntax.self) {
      return definitionCall(in: tryExpression.expression, annotated: annotated)
    }
    guard let call = expression.as(FunctionCallExprSyntax.self) else { return nil }
    var callee = call.calledExpression
    if let specialized = callee.as(GenericSpecializationExprSyntax.self) {
      callee = specialized.expression
    }
    if let reference = callee.as(DeclReferenceExprSyntax.self),
      reference.baseName.text == "StateMachineDefinition"
    {
      return call
    }
    if let access = callee.as(MemberAccessExprSyntax.self) {
      let member = access.declName.baseName.text
      if member == "StateMachineDefinition" { return call }
      if annotated, access.base == nil, member == "init" { return call }
    }
    return nil
  }

  private static func builderClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
    if let trailing = call.trailingClosure { return trailing }
    return call.arguments.lazy.compactMap { $0.expression.as(ClosureExprSyntax.self) }.first
  }
}
