import StateMachinesNames
import SwiftDiagnostics
import SwiftSyntax

/// A generated member and the name it comes from.
struct GeneratedName {
  /// `state` or `event`.
  let kind: String
  /// The state or event name as written.
  let name: String
  /// The identifier derived from it (`inProgress`).
  let identifier: String
  /// The members it generates, keyed like ``MachineClass/declaredMembers``: `isInProgress`, or
  /// `activate`, `activate(with:)`, `canActivate`.
  let members: [String]
  let node: ExprSyntax
}

/// Checks a parsed definition (Semantics §Names and §Definition) and says which members to
/// generate. Every problem becomes a diagnostic anchored on the offending literal.
struct DefinitionChecker {
  let definition: ParsedDefinition
  let machineClass: MachineClass
  let closure: ClosureExprSyntax
  private(set) var diagnostics: [Diagnostic] = []
  private(set) var states: [GeneratedName] = []
  private(set) var events: [GeneratedName] = []

  init(definition: ParsedDefinition, machineClass: MachineClass, closure: ClosureExprSyntax) {
    self.definition = definition
    self.machineClass = machineClass
    self.closure = closure
    let tree = MacroStateTree(definition.nodes)
    checkLiterals()
    checkDeclarations(tree)
    checkReferences(tree)
    checkTransitions(tree)
    checkTriggerIsolation()
    checkInvokes(tree)
    states = Self.stateMembers(tree, definition.nodes).compactMap { name("state", $0) { ["is" + NameRules.capitalized($0)] } }
    events = definition.uniqueEvents.compactMap {
      name("event", ($0, $0.value ?? "")) { [$0, "\($0)(with:)", "can" + NameRules.capitalized($0)] }
    }
    checkClashes()
  }

  /// The states that get an `is…` member, in document order, each as an occurrence whose value is
  /// its canonical path (what `stateID` looks up) and whose identifier source is its bare name
  /// when that is unique in the machine, else its path (§3). Pseudostates and anonymous regions
  /// get none.
  static func stateMembers(_ tree: MacroStateTree, _ nodes: [DeclaredStateNode]) -> [(NameOccurrence, String)] {
    let members = tree.order.filter { !tree.isPseudostate($0) && !tree.isAnonymousRegion($0) }
    var counts: [String: Int] = [:]
    for index in members { counts[tree.name(index), default: 0] += 1 }
    return members.map { index in
      let path = tree.paths[index]!
      let source = counts[tree.name(index)] == 1 ? tree.name(index) : String(path.map { $0 == "/" || $0 == "@" ? " " : $0 })
      return (NameOccurrence(value: path, node: nodes[index].name.node, context: nodes[index].name.context), source)
    }
  }

  /// Names the macro cannot read, and empty event names. (Declared state names are checked by
  /// the names model, in ``checkDeclarations(_:)``.)
  private mutating func checkLiterals() {
    let stateNames = definition.nodes.filter { !$0.isAnonymousRegion }.map(\.name)
    for (kind, occurrences) in [("state", stateNames), ("event", definition.eventDeclarations)] {
      for occurrence in occurrences {
        if occurrence.value == nil {
          diagnostics.append(Diagnostic(node: occurrence.node, message: StateMachineDiagnostic.nonLiteralName(kind: kind)))
        } else if occurrence.value == "" && kind == "event" {
          diagnostics.append(
            Diagnostic(node: occurrence.node, message: StateMachineDiagnostic.emptyName(kind: kind, context: occurrence.context)))
        }
      }
    }
  }

  /// Declarations the runtime would refuse (an invalid name, a path whose parent does not
  /// resolve), with the runtime's message: the names model places them for both.
  private mutating func checkDeclarations(_ tree: MacroStateTree) {
    guard !definition.hasDynamicStates else { return }
    for error in tree.errors {
      diagnostics.append(
        Diagnostic(
          node: definition.nodes[error.declared].name.node,
          message: StateMachineDiagnostic.name(error.error, context: error.context)))
    }
  }

  /// Timeouts and notifications fire from another thread: only a locked or actor-isolated class
  /// can take them safely.
  private mutating func checkTriggerIsolation() {
    guard let trigger = definition.triggers.first, !machineClass.declaresSendable,
      machineClass.globalActor == nil
    else { return }
    diagnostics.append(
      Diagnostic(
        node: trigger, message: StateMachineDiagnostic.triggerNeedsIsolation(className: machineClass.name),
        fixIts: [addMainActor()]))
  }

  /// Invokes (Invoke I1, I11): valid unique ids, in states that may invoke, named by their
  /// result transitions, whose events no `when` declares by hand; results arrive from a task, so
  /// the class must be isolated or `Sendable`.
  private mutating func checkInvokes(_ tree: MacroStateTree) {
    let invokes = definition.invokes
    var seen: Set<String> = []
    for invoke in invokes {
      // An id the macro cannot read generates nothing: only the runtime checks it.
      guard let id = invoke.id.value else { continue }
      if id.isEmpty || id.utf8.contains(where: NameGrammar.isSeparator) {
        diagnostics.append(
          Diagnostic(node: invoke.id.node, message: StateMachineDiagnostic.invalidName(id, context: "invoke('\(id)')")))
      } else if !seen.insert(id).inserted {
        diagnostics.append(Diagnostic(node: invoke.id.node, message: StateMachineDiagnostic.duplicateInvoke(id)))
      }
      if !definition.hasDynamicStates, let state = invoke.state, let name = state.occurrence.value,
        case .state(let index) = tree.resolve(name, from: state.scope)
      {
        let reason: String? =
          tree.isPseudostate(index)
          ? "a pseudostate cannot invoke" : definition.nodes[index].kind == .final ? "a final state cannot invoke" : nil
        if let reason {
          diagnostics.append(
            Diagnostic(
              node: state.occurrence.node,
              message: StateMachineDiagnostic.invokeInFinalOrPseudostate(id: id, state: name, reason: reason)))
        }
      }
    }
    if invokes.allSatisfy({ $0.id.value != nil }) {
      for result in definition.invokeResults {
        guard let id = result.value, !seen.contains(id) else { continue }
        let method = String(result.context.filter { $0 != "'" })
        diagnostics.append(
          Diagnostic(
            node: result.node, message: StateMachineDiagnostic.undeclaredInvoke(id, method: method),
            fixIts: NameRules.closest(to: id, among: seen.sorted()).map { [replace(result.node, with: $0)] } ?? []))
      }
    }
    guard let first = invokes.first else { return }
    for event in definition.eventDeclarations {
      guard let name = event.value, name.hasPrefix("done.invoke.") || name.hasPrefix("error.invoke.") else { continue }
      diagnostics.append(Diagnostic(node: event.node, message: StateMachineDiagnostic.reservedInvokeEvent(name)))
    }
    if !machineClass.declaresSendable && machineClass.globalActor == nil {
      diagnostics.append(
        Diagnostic(
          node: first.call, message: StateMachineDiagnostic.invokeNeedsIsolation(className: machineClass.name),
          fixIts: [addMainActor()]))
    }
  }

  /// The fix-it that isolates the class to `@MainActor`.
  private func addMainActor() -> FixIt {
    let declaration = machineClass.declaration
    let attribute = AttributeListSyntax.Element(AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("MainActor"))))
    var attributes = declaration.attributes
    attributes.insert(attribute.with(\.trailingTrivia, .newline), at: attributes.startIndex)
    let isolated = declaration.with(\.attributes, attributes)
    return FixIt(
      message: StateMachineFixIt.addMainActor,
      changes: [.replace(oldNode: Syntax(declaration.attributes), newNode: Syntax(isolated.attributes))])
  }

  /// Transitions and callbacks that name undeclared, ambiguous or malformed states (N4, N5) or
  /// undeclared events.
  private mutating func checkReferences(_ tree: MacroStateTree) {
    let declaredStates = Array(Set(tree.order.map { tree.name($0) })).sorted() + tree.order.compactMap { tree.paths[$0] }
    let declaredEvents = definition.uniqueEvents.compactMap(\.value)
    if !definition.hasDynamicStates {
      for reference in definition.stateReferences {
        guard let value = reference.occurrence.value else { continue }
        let node = reference.occurrence.node
        let context = reference.occurrence.context
        if value.isEmpty {
          diagnostics.append(Diagnostic(node: node, message: StateMachineDiagnostic.emptyName(kind: "state", context: context)))
          continue
        }
        switch tree.resolve(value, from: reference.scope) {
        case .state:
          continue
        case .failed(.ambiguous(_, let candidates)):
          let declarations = candidates.compactMap { path in tree.order.first { tree.paths[$0] == path } }
          diagnostics.append(
            Diagnostic(
              node: node,
              message: StateMachineDiagnostic.ambiguousState(value, candidates: candidates, context: context),
              notes: declarations.map {
                Note(node: Syntax(definition.nodes[$0].name.node), message: StateMachineNote.candidate(tree.paths[$0]!))
              },
              fixIts: candidates.map { replace(node, with: $0) }))
        case .failed(.undeclared):
          let fixIt =
            NameRules.closest(to: value, among: declaredStates).map { replace(node, with: $0) }
            ?? declareState(value)
          diagnostics.append(
            Diagnostic(
              node: node, message: StateMachineDiagnostic.undeclaredState(value, context: context),
              fixIts: [fixIt]))
        case .failed(let error):
          diagnostics.append(Diagnostic(node: node, message: StateMachineDiagnostic.name(error, context: context)))
        }
      }
    }
    if !definition.hasDynamicEvents {
      for reference in definition.eventReferences {
        guard let value = reference.value, !declaredEvents.contains(value) else { continue }
        if value.isEmpty {
          diagnostics.append(Diagnostic(node: reference.node, message: StateMachineDiagnostic.emptyName(kind: "event", context: reference.context)))
          continue
        }
        let fixIts = NameRules.closest(to: value, among: declaredEvents).map { [replace(reference.node, with: $0)] } ?? []
        diagnostics.append(
          Diagnostic(
            node: reference.node, message: StateMachineDiagnostic.undeclaredEvent(value, context: reference.context),
            fixIts: fixIts))
      }
    }
  }

  /// Transitions that leave a pseudostate, forks whose targets share a region, and `.local`
  /// between unrelated states (S10c, S17a, S20).
  private mutating func checkTransitions(_ tree: MacroStateTree) {
    guard !definition.hasDynamicStates else { return }
    func resolved(_ reference: ScopedNameReference) -> Int? {
      guard let value = reference.occurrence.value, case .state(let index) = tree.resolve(value, from: reference.scope) else {
        return nil
      }
      return index
    }
    for transition in definition.transitions {
      for source in transition.sources {
        if let index = resolved(source), tree.isPseudostate(index) {
          diagnostics.append(
            Diagnostic(
              node: source.occurrence.node,
              message: StateMachineDiagnostic.pseudostateSource(tree.paths[index]!, context: transition.context)))
        }
      }
      let targets = transition.targets.compactMap { reference in resolved(reference).map { (reference, $0) } }
      if targets.count > 1 {
        search: for (i, first) in targets.enumerated() {
          for second in targets[(i + 1)...] where !tree.inDistinctRegions(first.1, second.1) {
            diagnostics.append(
              Diagnostic(
                node: second.0.occurrence.node,
                message: StateMachineDiagnostic.targetsInOneRegion(
                  tree.paths[first.1]!, tree.paths[second.1]!, context: transition.context)))
            break search
          }
        }
      }
      if transition.isLocal, let target = targets.first, targets.count == 1 {
        for source in transition.sources {
          guard let from = resolved(source) else { continue }
          let to = target.1
          if from != to && !tree.isDescendant(from, of: to) && !tree.isDescendant(to, of: from) {
            diagnostics.append(
              Diagnostic(
                node: target.0.occurrence.node,
                message: StateMachineDiagnostic.localBehavesAsExternal(from: tree.paths[from]!, to: tree.paths[to]!)))
          }
        }
      }
    }
  }

  /// The generated name of a declared state or event, or `nil` (with a diagnostic) if it has none.
  private mutating func name(
    _ kind: String, _ state: (NameOccurrence, String), members: (String) -> [String]
  ) -> GeneratedName? {
    let (occurrence, source) = state
    guard let value = occurrence.value, !value.isEmpty, !source.isEmpty else { return nil }
    guard let identifier = NameRules.identifier(for: source) else {
      diagnostics.append(Diagnostic(node: occurrence.node, message: StateMachineDiagnostic.invalidIdentifier(kind: kind, name: value)))
      return nil
    }
    if kind == "event", NameRules.keywords.contains(identifier) {
      diagnostics.append(
        Diagnostic(node: occurrence.node, message: StateMachineDiagnostic.keyword(kind: kind, name: value, identifier: identifier)))
      return nil
    }
    return GeneratedName(kind: kind, name: value, identifier: identifier, members: members(identifier), node: occurrence.node)
  }

  /// Two names generating one member, or a generated member the class already declares. Each
  /// name is reported once, at its first conflict, and then generates nothing.
  private mutating func checkClashes() {
    let declared = machineClass.declaredMembers
    if let userState = declared["state"] {
      diagnostics.append(
        Diagnostic(
          node: userState,
          message: StateMachineDiagnostic.clashesWithMember(member: "state", origin: "the current state", className: machineClass.name),
          fixIts: [removeMember(userState)]))
    }
    var owners: [String: GeneratedName] = [:]
    var clashing: Set<String> = []
    for generated in states + events {
      if let diagnostic = clash(of: generated, owners: owners, declared: declared) {
        diagnostics.append(diagnostic)
        clashing.insert(generated.name)
      } else {
        for member in generated.members { owners[member] = generated }
      }
    }
    states.removeAll { clashing.contains($0.name) }
    events.removeAll { clashing.contains($0.name) }
  }

  /// Properties every machine object has (generated, or from `StateMachineObject`): a state or
  /// event whose member would take one of these names cannot be generated.
  static let reservedMembers: Set<String> = [
    "state", "stateMachineDefinition", "availableEvents", "isStateMachineTerminated", "stateTransitions",
  ]

  /// The first conflict of `generated`'s members with a reserved name, an earlier name's or a
  /// declared member.
  private func clash(of generated: GeneratedName, owners: [String: GeneratedName], declared: [String: DeclSyntax]) -> Diagnostic? {
    for member in generated.members {
      // `activate(with:)` clashes under that key, but messages name the member `activate`.
      let baseName = String(member.prefix { $0 != "(" })
      if Self.reservedMembers.contains(baseName) {
        return Diagnostic(
          node: generated.node,
          message: StateMachineDiagnostic.reservedName(kind: generated.kind, name: generated.name, member: baseName))
      }
      if let owner = owners[member] {
        return Diagnostic(
          node: generated.node,
          message: StateMachineDiagnostic.sameIdentifier(
            kind: generated.kind, name: generated.name, otherKind: owner.kind, other: owner.name, identifier: baseName),
          notes: [Note(node: Syntax(owner.node), message: StateMachineNote.nameDeclaredHere(kind: owner.kind, name: owner.name))])
      }
      if let existing = declared[member] {
        return Diagnostic(
          node: generated.node,
          message: StateMachineDiagnostic.clashesWithMember(
            member: baseName, origin: "\(generated.kind) '\(generated.name)'", className: machineClass.name),
          notes: [Note(node: Syntax(existing), message: StateMachineNote.declaredHere(baseName))])
      }
    }
    return nil
  }

  // MARK: Fix-its

  private func replace(_ node: ExprSyntax, with name: String) -> FixIt {
    FixIt(
      message: StateMachineFixIt.replaceName(name),
      changes: [.replace(oldNode: Syntax(node), newNode: Syntax(StringLiteralExprSyntax(content: name).with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)))])
  }

  /// Inserts `sm.addState("name")` before the definition closure's first statement. Only that
  /// statement is replaced, so the fix-it can be applied together with the others.
  private func declareState(_ name: String) -> FixIt {
    let builder = DefinitionLocator.builderName(of: closure)
    var statement: CodeBlockItemSyntax = "\(raw: builder).addState(\(literal: name))"
    guard let first = closure.statements.first else {
      statement = statement.with(\.leadingTrivia, .space).with(\.trailingTrivia, .space)
      return FixIt(
        message: StateMachineFixIt.declareState(name),
        changes: [.replace(oldNode: Syntax(closure.statements), newNode: Syntax(CodeBlockItemListSyntax([statement])))])
    }
    statement = statement.with(\.leadingTrivia, first.leadingTrivia)
    if !first.leadingTrivia.contains(where: \.isNewline) {
      // `{ sm in sm.addState("a") }`: keep it on one line.
      statement = statement.with(\.semicolon, .semicolonToken(trailingTrivia: .space))
    }
    return FixIt(
      message: StateMachineFixIt.declareState(name),
      changes: [.replace(oldNode: Syntax(first), newNode: Syntax(CodeBlockItemListSyntax([statement, first])))])
  }

  /// Removes the member's whole line.
  private func removeMember(_ member: DeclSyntax) -> FixIt {
    let item = member.parent ?? Syntax(member)
    return FixIt(
      message: StateMachineFixIt.removeMember("state"),
      changes: [.replace(oldNode: item, newNode: Syntax(MemberBlockItemListSyntax([])))])
  }
}
