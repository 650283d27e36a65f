import SwiftSyntax

/// A state or event name as written in the definition: its value if it is a plain string literal.
struct NameOccurrence {
  /// The literal's value, or `nil` for an expression the macro cannot read (a variable, a call…).
  let value: String?
  /// The expression, where diagnostics are anchored.
  let node: ExprSyntax
  /// What mentions the name, for messages: "transition 'activate'", "'before'".
  let context: String
}

/// What the macro reads from a `StateMachineDefinition` initializer: where names are declared
/// and where they are referenced.
struct ParsedDefinition {
  /// The static property that holds the definition (`stateMachine`).
  var propertyName: String
  /// States declared by `addState`, `addFinalState` and `initialState`.
  var stateDeclarations: [NameOccurrence] = []
  /// Events declared by `when` and `die`.
  var eventDeclarations: [NameOccurrence] = []
  /// States named by transitions, `onEntry` and `onExit`.
  var stateReferences: [NameOccurrence] = []
  /// Events named by `before` and `after`.
  var eventReferences: [NameOccurrence] = []
  /// The `after:` and `onNotification:` arguments of transitions: events that arrive from a
  /// timer task or a notification, i.e. from another thread.
  var triggers: [ExprSyntax] = []

  /// Whether some state is declared by an expression the macro cannot read: then a reference to
  /// an unknown state may be fine, and only the runtime can tell.
  var hasDynamicStates: Bool { stateDeclarations.contains { $0.value == nil } }
  var hasDynamicEvents: Bool { eventDeclarations.contains { $0.value == nil } }

  /// Declared names, unique, in declaration order, with their first occurrence.
  var uniqueStates: [NameOccurrence] { Self.unique(stateDeclarations) }
  var uniqueEvents: [NameOccurrence] { Self.unique(eventDeclarations) }

  private static func unique(_ occurrences: [NameOccurrence]) -> [NameOccurrence] {
    var seen: Set<String> = []
    return occurrences.filter { occurrence in
      guard let value = occurrence.value else { return false }
      return seen.insert(value).inserted
    }
  }
}

/// Reads the builder calls of a definition closure (`sm.addState("a")`, `sm.when(…)`, …).
///
/// Only calls on the closure's own parameter count; nested closures (callbacks) are skipped.
final class DefinitionReader: SyntaxVisitor {
  private let builderName: String
  private(set) var definition: ParsedDefinition

  init(builderName: String, propertyName: String) {
    self.builderName = builderName
    definition = ParsedDefinition(propertyName: propertyName)
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    .skipChildren
  }

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    // `sm.initialState = "x"`
    let elements = Array(node.elements)
    if elements.count == 3, builderMember(elements[0]) == "initialState",
      elements[1].is(AssignmentExprSyntax.self)
    {
      definition.stateDeclarations.append(occurrence(elements[2], context: "'initialState'"))
    }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard let method = builderMember(node.calledExpression) else { return .visitChildren }
    let arguments = Array(node.arguments)
    func argument(_ label: String?) -> ExprSyntax? {
      arguments.first { $0.label?.text == label }?.expression
    }
    let firstName = arguments.first.map { occurrence($0.expression, context: "'\(method)'") }
    switch method {
    case "addState", "addFinalState":
      if let firstName { definition.stateDeclarations.append(firstName) }
    case "when":
      guard let event = arguments.first else { break }
      let eventName = occurrence(event.expression, context: "'when'")
      definition.eventDeclarations.append(eventName)
      let context = "transition '\(eventName.value ?? "…")'"
      for label in ["after", "onNotification"] {
        if let trigger = argument(label) { definition.triggers.append(trigger) }
      }
      for label in ["transitionFrom", "to", "transitionFromAnyStateTo"] {
        if let expression = argument(label) {
          definition.stateReferences += occurrences(expression, context: context)
        }
      }
    case "die":
      if let event = argument("on") {
        definition.eventDeclarations.append(occurrence(event, context: "'die(on:)'"))
      }
      if let from = argument("from") {
        definition.stateReferences += occurrences(from, context: "'die(on:from:)'")
      }
    case "before", "after":
      if let firstName { definition.eventReferences.append(firstName) }
    case "onEntry", "onExit":
      if let firstName { definition.stateReferences.append(firstName) }
    default:
      break
    }
    return .visitChildren
  }

  /// The member name if `expression` is `<builder>.<member>`.
  private func builderMember(_ expression: some SyntaxProtocol) -> String? {
    guard let access = expression.as(MemberAccessExprSyntax.self),
      let base = access.base?.as(DeclReferenceExprSyntax.self),
      base.baseName.text == builderName
    else { return nil }
    return access.declName.baseName.text
  }

  private func occurrence(_ expression: some ExprSyntaxProtocol, context: String) -> NameOccurrence {
    let literal = expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    return NameOccurrence(value: literal, node: ExprSyntax(expression), context: context)
  }

  /// A string literal, or each element of an array literal.
  private func occurrences(_ expression: ExprSyntax, context: String) -> [NameOccurrence] {
    if let array = expression.as(ArrayExprSyntax.self) {
      return array.elements.map { occurrence($0.expression, context: context) }
    }
    return [occurrence(expression, context: context)]
  }
}
