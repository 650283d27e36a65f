import StateMachinesNames
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

/// A state or pseudostate as declared, in declaration order (Hierarchy N1).
struct DeclaredStateNode {
  typealias Kind = DeclaredNodeKind

  /// The name or path as written; an anonymous region has the value "".
  var name: NameOccurrence
  /// The declared node whose scoped builder declared it; -1 for the root.
  var scope: Int
  var kind: Kind
  /// A region of `addParallelState(_:regions:)` (N3).
  var isAnonymousRegion = false
  /// Declared by the root's `initialState`: only if no state of that name is declared.
  var isImplicit = false

  var isPseudostate: Bool { kind.isPseudostate }
}

/// A reference to a state, with the scope it is written in (N5).
struct ScopedNameReference {
  let occurrence: NameOccurrence
  let scope: Int
}

/// A transition as far as the checks need it.
struct DeclaredTransitionShape {
  let sources: [ScopedNameReference]
  let targets: [ScopedNameReference]
  let isLocal: Bool
  let context: String
}

/// An invoke (`sm.invoke("fetchUser", in: "loading", …)`, Invoke I1).
struct DeclaredInvoke {
  let id: NameOccurrence
  /// The invoking state, if written.
  let state: ScopedNameReference?
  /// The call, where the isolation diagnostic is anchored.
  let call: ExprSyntax
}

/// What the macro reads from a `StateMachineDefinition` initializer: the states with their
/// scopes, the events, and every reference to a state or event.
struct ParsedDefinition {
  /// The static property that holds the definition (`stateMachine`).
  var propertyName: String
  /// States and pseudostates, in declaration order.
  var nodes: [DeclaredStateNode] = []
  /// Events declared by `when` and `die`.
  var eventDeclarations: [NameOccurrence] = []
  /// States named by transitions, `onEntry`, `onExit`, scoped `initialState`, history defaults,
  /// junction paths and joins.
  var stateReferences: [ScopedNameReference] = []
  /// Events named by `before` and `after`.
  var eventReferences: [NameOccurrence] = []
  var transitions: [DeclaredTransitionShape] = []
  /// The `after:` and `onNotification:` arguments of transitions: events that arrive from a
  /// timer task or a notification, i.e. from another thread.
  var triggers: [ExprSyntax] = []
  /// The invokes, and the ids that `whenInvokeDone`/`whenInvokeFailed` name.
  var invokes: [DeclaredInvoke] = []
  var invokeResults: [NameOccurrence] = []

  /// Whether some state is declared by an expression the macro cannot read: then a reference to
  /// an unknown state may be fine, and only the runtime can tell.
  var hasDynamicStates: Bool { nodes.contains { $0.name.value == nil } }
  var hasDynamicEvents: Bool { eventDeclarations.contains { $0.value == nil } }

  var uniqueEvents: [NameOccurrence] {
    var seen: Set<String> = []
    return eventDeclarations.filter { occurrence in
      guard let value = occurrence.value else { return false }
      return seen.insert(value).inserted
    }
  }
}

/// Reads the builder calls of a definition closure (`sm.addState("a")`, `sm.when(…)`, …) and of
/// the scoped builders of compound states (`sm.addState("on") { on in on.addState("idle") }`).
///
/// Only calls on a builder count; other closures (callbacks) are skipped.
final class DefinitionReader: SyntaxVisitor {
  /// Collects what every reader of one definition finds.
  final class Collector {
    var definition: ParsedDefinition
    init(propertyName: String) { definition = ParsedDefinition(propertyName: propertyName) }
  }

  private let builderName: String
  private let scope: Int
  private let collector: Collector
  var definition: ParsedDefinition { collector.definition }

  convenience init(builderName: String, propertyName: String) {
    self.init(builderName: builderName, scope: -1, collector: Collector(propertyName: propertyName))
  }

  private init(builderName: String, scope: Int, collector: Collector) {
    self.builderName = builderName
    self.scope = scope
    self.collector = collector
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    .skipChildren
  }

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    // `sm.initialState = "x"`, `sm.initialStates = ["a", "b"]`
    let elements = Array(node.elements)
    if elements.count == 3, let member = builderMember(elements[0]), member == "initialState" || member == "initialStates",
      elements[1].is(AssignmentExprSyntax.self)
    {
      for name in occurrences(elements[2], context: "'\(member)'") {
        if scope == -1 {
          // The root's initial state declares a state of that name if none is declared.
          var node = DeclaredStateNode(name: name, scope: -1, kind: .state)
          node.isImplicit = true
          collector.definition.nodes.append(node)
        }
        collector.definition.stateReferences.append(ScopedNameReference(occurrence: name, scope: scope))
      }
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
    case "addState", "addFinalState", "addParallelState", "addHistory", "addJunction", "addJoin":
      guard let firstName else { break }
      let kind: DeclaredStateNode.Kind =
        switch method {
        case "addFinalState": .final
        case "addParallelState": .parallel
        case "addHistory": .history
        case "addJunction": .junction
        case "addJoin": .join
        default: .state
        }
      collector.definition.nodes.append(DeclaredStateNode(name: firstName, scope: scope, kind: kind))
      let declared = collector.definition.nodes.count - 1
      if method == "addParallelState", let regions = argument("regions")?.as(ArrayExprSyntax.self) {
        for region in regions.elements {
          let anonymous = NameOccurrence(value: "", node: region.expression, context: "'addParallelState'")
          var regionNode = DeclaredStateNode(name: anonymous, scope: declared, kind: .state)
          regionNode.isAnonymousRegion = true
          collector.definition.nodes.append(regionNode)
          let regionIndex = collector.definition.nodes.count - 1
          for state in occurrences(region.expression, context: "'addParallelState'") {
            collector.definition.nodes.append(DeclaredStateNode(name: state, scope: regionIndex, kind: .state))
          }
        }
      }
      if method == "addHistory" {
        for argument in arguments.dropFirst() {
          let label = argument.label?.text
          if label == "defaults" {
            for name in occurrences(argument.expression, context: "the default of history") { reference(name, scope: scope) }
          } else if label == "default" || (label == nil && argument.expression.is(StringLiteralExprSyntax.self)) {
            reference(occurrence(argument.expression, context: "the default of history"), scope: scope)
          }
        }
      }
      if method == "addJoin", let target = argument("to") {
        reference(occurrence(target, context: "join '\(firstName.value ?? "…")'"), scope: scope)
      }
      // The closure of a compound or parallel state (its scoped builder), or of a junction.
      if let closure = node.trailingClosure ?? arguments.last?.expression.as(ClosureExprSyntax.self) {
        if method == "addJunction" {
          readJunction(closure, name: firstName.value ?? "…")
        } else if method == "addState" || method == "addParallelState" {
          let reader = DefinitionReader(
            builderName: DefinitionLocator.builderName(of: closure), scope: declared, collector: collector)
          reader.walk(closure.statements)
        }
      }
    case "when", "always", "whenDone":
      let eventName: NameOccurrence?
      if method == "when", let event = arguments.first {
        eventName = occurrence(event.expression, context: "'when'")
        collector.definition.eventDeclarations.append(eventName!)
      } else {
        eventName = nil
      }
      let context =
        method == "when" ? "transition '\(eventName?.value ?? "…")'" : method == "always" ? "'always'" : "'whenDone'"
      for label in ["after", "onNotification"] {
        if let trigger = argument(label) { collector.definition.triggers.append(trigger) }
      }
      var sources: [ScopedNameReference] = []
      var targets: [ScopedNameReference] = []
      for (label, isSource) in [("transitionFrom", true), (nil, true), ("to", false), ("transitionFromAnyStateTo", false), ("transitionTo", false)] {
        if method == "when" && label == nil { continue }
        guard let expression = argument(label) else { continue }
        for name in occurrences(expression, context: context) {
          let reference = ScopedNameReference(occurrence: name, scope: scope)
          collector.definition.stateReferences.append(reference)
          if isSource { sources.append(reference) } else { targets.append(reference) }
        }
      }
      let isLocal = argument("kind")?.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "local"
      collector.definition.transitions.append(
        DeclaredTransitionShape(sources: sources, targets: targets, isLocal: isLocal, context: context))
    case "invoke":
      guard let firstName else { break }
      var state: ScopedNameReference?
      if let expression = argument("in") {
        let name = occurrence(expression, context: "invoke('\(firstName.value ?? "…")')")
        reference(name, scope: scope)
        state = ScopedNameReference(occurrence: name, scope: scope)
      }
      collector.definition.invokes.append(DeclaredInvoke(id: firstName, state: state, call: ExprSyntax(node)))
    case "whenInvokeDone", "whenInvokeFailed":
      if let firstName { collector.definition.invokeResults.append(firstName) }
      if let target = argument("transitionTo") {
        reference(occurrence(target, context: "'\(method)'"), scope: scope)
      }
    case "die":
      if let event = argument("on") {
        collector.definition.eventDeclarations.append(occurrence(event, context: "'die(on:)'"))
      }
      if let from = argument("from") {
        for name in occurrences(from, context: "'die(on:from:)'") { reference(name, scope: scope) }
      }
    case "before", "after":
      if let firstName { collector.definition.eventReferences.append(firstName) }
    case "onEntry", "onExit":
      // `sm.onEntry("x") { … }`; a scoped `on.onEntry { … }` names no state.
      if let firstName, arguments.first?.label == nil, !(arguments.first?.expression.is(ClosureExprSyntax.self) ?? true) {
        reference(firstName, scope: scope)
      }
    default:
      break
    }
    return .visitChildren
  }

  /// `j.path(to: "x", …)` and `j.otherwise(to: "y")` of a junction's closure.
  private func readJunction(_ closure: ClosureExprSyntax, name: String) {
    let junction = DefinitionLocator.builderName(of: closure)
    final class PathReader: SyntaxVisitor {
      let junction: String
      var targets: [ExprSyntax] = []
      init(junction: String) {
        self.junction = junction
        super.init(viewMode: .sourceAccurate)
      }
      override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
      override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let access = node.calledExpression.as(MemberAccessExprSyntax.self),
          access.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == junction,
          let target = node.arguments.first(where: { $0.label?.text == "to" })?.expression
        {
          targets.append(target)
        }
        return .visitChildren
      }
    }
    let reader = PathReader(junction: junction)
    reader.walk(closure.statements)
    for target in reader.targets { reference(occurrence(target, context: "a path of junction '\(name)'"), scope: scope) }
  }

  private func reference(_ name: NameOccurrence, scope: Int) {
    collector.definition.stateReferences.append(ScopedNameReference(occurrence: name, scope: scope))
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
